import type { FastifyReply, FastifyRequest } from 'fastify';

const EXPOSED = 'ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id';

/**
 * The headers every answer carries, set in one step: the request id its log lines carry; CORS
 * open to any origin, never with credentials (DECISIONS §7), with the quota and cache headers
 * readable by browsers; and no content sniffing. (Fastify sends no X-Powered-By.)
 */
export function commonHeaders(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers(commonHeaderValues(request.id));
  done();
}

/** The same headers as an object, for answers written without Fastify (fast-path.ts). */
export function commonHeaderValues(requestId: string): Record<string, string | number> {
  return {
    'x-request-id': requestId,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED,
    'x-content-type-options': 'nosniff',
  };
}
