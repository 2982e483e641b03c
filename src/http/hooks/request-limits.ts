import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Exchanges } from '../client-errors.js';
import { HttpError } from '../errors.js';
import { limitMessages, type HttpLimits } from '../limits.js';

/**
 * onRequest, before authentication: a URL over the limit is refused whatever its path, and an
 * HTTP/1.1 request without Host gets the 400 RFC 9112 §3.2 requires (Node's own check, switched
 * off in limits.ts, would answer it with an empty body). A `#` is refused too: a request target has
 * no fragment (RFC 9112 §3.2), and the router ends the path at a `#` while the query keeps it, so a
 * request would be answered for less, or other, than what the client sent. The exchange is noted
 * first, for an error the parser raises later on the same connection (client-errors.ts).
 */
export function requestLimits(limits: HttpLimits, exchanges: Exchanges) {
  const text = limitMessages(limits);
  return function requestLimits(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    exchanges.begin(request.raw, reply.raw);
    const url = request.raw.url ?? '';
    if (url.length > limits.maxUrlLength) return done(new HttpError(414, text[414]));
    if (url.includes('#')) return done(new HttpError(400, text.fragment));
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
      return done(new HttpError(400, text.noHost));
    }
    done();
  };
}
