import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from '../errors.js';

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

/**
 * The headers of an answer the quota allowed, as the fast path sends it: the common headers, the
 * quota's three (the limit as text, made once by the caller: it is the same for every answer),
 * the ETag, and for a 200 the body's type and length, made as one list at once.
 * Joining the common list with the quota's headers and growing it header by header cost ~1,900
 * more instructions an answer (callgrind). Same names, values and order as the other lists
 * (test/http/fast-path-equivalence.test.ts compares the answers byte for byte).
 */
export function allowedHeaderList(requestId: string, limit: string, remaining: number, reset: number, etag: string, byteLength?: number): (string | number)[] {
  const list: (string | number)[] = [
    'x-request-id', requestId,
    ...FIXED_LIST,
    'x-ratelimit-limit', limit,
    'x-ratelimit-remaining', String(remaining),
    'x-ratelimit-reset', String(reset),
    'etag', etag,
    'content-type', JSON_TYPE,
    'content-length', byteLength ?? 0,
  ];
  // A 304 has no body, so neither type nor length.
  if (byteLength === undefined) list.length -= 4;
  return list;
}
