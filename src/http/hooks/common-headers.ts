import type { FastifyReply, FastifyRequest } from 'fastify';

const EXPOSED = 'ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id';

/** The headers every answer carries besides its request id, also where Node answers for Fastify (http/client-errors.ts). */
export const FIXED_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
  'x-content-type-options': 'nosniff',
};

/**
 * onRequest: the headers every answer carries: the request id its log lines carry; CORS open to
 * any origin, never with credentials (DECISIONS §7), with the quota and cache headers readable by
 * browsers; and no content sniffing. (Fastify sends no X-Powered-By.)
 */
export function commonHeaders(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers({ 'x-request-id': request.id, ...FIXED_HEADERS });
  done();
}
