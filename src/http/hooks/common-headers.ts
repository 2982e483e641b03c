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

const FIXED = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
  'x-content-type-options': 'nosniff',
};
const FIXED_LIST: readonly string[] = Object.entries(FIXED).flat();

/** The same headers as an object. */
export function commonHeaderValues(requestId: string): Record<string, string> {
  return { 'x-request-id': requestId, ...FIXED };
}

/**
 * The same headers as a flat name, value, name, value... list, the form node's `writeHead` reads
 * without walking an object's keys, for answers written without Fastify (fast-path.ts).
 */
export function commonHeaderList(requestId: string): (string | number)[] {
  return ['x-request-id', requestId].concat(FIXED_LIST);
}
