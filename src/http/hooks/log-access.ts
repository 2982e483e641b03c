import type { FastifyReply, FastifyRequest } from 'fastify';
import { loggableUrl } from '../access-log.js';

/** onResponse: one structured line per request: what was asked, by which key id (never the key), how it went. */
export function logAccess(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  // The request's child logger already carries reqId.
  request.log.info(
    {
      method: request.method,
      url: loggableUrl(request.url),
      route: request.routeOptions.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      keyId: request.keyId,
    },
    'request',
  );
  done();
}
