import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, JSON_TYPE, sendError } from './errors.js';
import { commonHeaders, FIXED_HEADERS } from './hooks/common-headers.js';

/**
 * What a client may send, and how slowly. Every refusal is a JSON answer in the spec's error
 * shape, never an empty body or a dropped connection: a client learns what it did wrong.
 */
export interface HttpLimits {
  /** Longest request target (path and query) served; a longer one gets 414. */
  maxUrlLength: number;
  /** Request line plus headers; more gets 431 (Node's parser counts the URL in it too). */
  maxHeaderBytes: number;
  /** The whole request must have arrived within this. */
  requestTimeoutMs: number;
  /** The headers must have arrived within this after the connection (or previous request) began. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; above common load-balancer idle timeouts (60 s). */
  keepAliveTimeoutMs: number;
  /** How often Node looks for connections past the two timeouts above (its own default, 30 s, is too coarse). */
  timeoutCheckIntervalMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  maxUrlLength: 8 * 1024,
  maxHeaderBytes: 32 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  timeoutCheckIntervalMs: 1_000,
};

const messages = (limits: HttpLimits) => ({
  400: 'Malformed HTTP request',
  408: 'The request did not arrive in time',
  414: `The URL is longer than ${limits.maxUrlLength} characters`,
  431: `The request line and headers are larger than ${limits.maxHeaderBytes} bytes`,
  badUrl: 'Malformed URL: the path holds an invalid percent-encoding',
  fragment: 'Malformed URL: the request target holds a fragment (#)',
  noHost: 'An HTTP/1.1 request needs a Host header',
});

/**
 * The Fastify options that enforce `limits`; spread into the factory's options. `answered` is
 * told of each answer the router's own errors send: no route took them, so no onResponse hook runs.
 */
export function limitOptions(limits: HttpLimits, answered: (request: FastifyRequest, reply: FastifyReply) => void) {
  const text = messages(limits);
  return {
    http: {
      maxHeaderSize: limits.maxHeaderBytes,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      // Checked in enforceRequestLimits instead, so the 400 has the spec's JSON body.
      requireHostHeader: false,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A path parameter is only ever as long as the URL allows; a longer one is a 414 like any URL.
    routerOptions: { maxParamLength: limits.maxUrlLength },
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // Raised while routing, before any hook: the headers every answer carries are set here.
      commonHeaders(request, reply, () => undefined);
      reply.raw.once('finish', () => answered(request, reply));
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      return sendError(reply, new HttpError(status, status === 414 ? text[414] : text.badUrl));
    },
  };
}

/** The request a connection is on and its response, for the client-error handler below. */
const exchanges = new WeakMap<Socket, { request: IncomingMessage; response: ServerResponse }>();

/**
 * onRequest, before authentication: a URL over the limit is refused whatever its path, and an
 * HTTP/1.1 request without Host gets the 400 RFC 9112 §3.2 requires (Node's own check, switched
 * off above, would answer it with an empty body). A `#` is refused too: a request target has no
 * fragment (RFC 9112 §3.2), and the router ends the path at a `#` while the query keeps it, so a
 * request would be answered for less, or other, than what the client sent.
 */
export function enforceRequestLimits(limits: HttpLimits) {
  const text = messages(limits);
  return function requestLimits(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    exchanges.set(request.raw.socket, { request: request.raw, response: reply.raw });
    const url = request.raw.url ?? '';
    if (url.length > limits.maxUrlLength) return done(new HttpError(414, text[414]));
    if (url.includes('#')) return done(new HttpError(400, text.fragment));
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
      return done(new HttpError(400, text.noHost));
    }
    done();
  };
}

type ClientError = Error & { code?: string; rawPacket?: unknown };

/** Sockets already answered: after a parse error Node hands every further chunk to the handler again. */
const answered = new WeakSet<Socket>();

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers too large, a
 * timeout, bytes that are not HTTP). Node's own answer to those is an empty body; this one is the
 * spec's JSON error shape. The connection is half-closed and drained rather than reset, so the
 * client can read the answer even while it is still sending, and destroyed shortly after.
 */
function clientErrorHandler(limits: HttpLimits) {
  const text = messages(limits);
  return function onClientError(this: FastifyInstance, err: ClientError, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const status = statusOf(err, limits);
    // No request was parsed to carry an id: this answer gets its own, as every answer has one.
    const reqId = randomUUID();
    // Only the code: the error's message and stack say nothing a client or operator needs here.
    // The one line of an answer no request was parsed for (so not in http_requests_total).
    this.log.info({ reqId, code: err.code, status }, 'refused before a request was read');
    // A request answered before its body finished arriving (a 401, a 404) that then times out
    // must not get a second answer on the same connection: it is only closed.
    const exchange = exchanges.get(socket);
    const answeredAlready = exchange !== undefined && !exchange.request.complete && exchange.response.headersSent;
    if (socket.writable && !answeredAlready) {
      const body = JSON.stringify({ statusCode: status, message: text[status], error: STATUS_CODES[status] });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          `Content-Type: ${JSON_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${reqId}\r\n` +
          Object.entries(FIXED_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
          'Connection: close\r\n\r\n' +
          (isHead(err.rawPacket) ? '' : body),
      );
      setTimeout(() => socket.destroy(), 2_000).unref();
    } else {
      socket.destroy();
    }
  };
}

/** A HEAD request's answer has no body, whatever went wrong with it. */
function isHead(packet: unknown): boolean {
  return Buffer.isBuffer(packet) && packet.subarray(0, 5).toString('latin1') === 'HEAD ';
}

function statusOf(err: ClientError, limits: HttpLimits): 400 | 408 | 414 | 431 {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err.code === 'HPE_HEADER_OVERFLOW') return overflowIsTheUrl(err.rawPacket, limits) ? 414 : 431;
  return 400;
}

/**
 * The parser reports one overflow for the request line and headers together. When the data it
 * was reading starts a request line (`METHOD SP target`) whose target alone passes the URL
 * limit, the URL is what was too long.
 */
function overflowIsTheUrl(packet: unknown, limits: HttpLimits): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const space = packet.indexOf(0x20);
  if (space < 1 || space > 16) return false;
  for (let i = 0; i < space; i++) {
    const c = packet[i]!;
    if (c < 0x41 || c > 0x5a) return false;
  }
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd === -1 ? packet.length : lineEnd) - space - 1 > limits.maxUrlLength;
}
