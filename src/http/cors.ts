import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Open to any origin, never with credentials (DECISIONS §7). Browsers may read the quota and
 * cache headers. A few lines, because @fastify/cors would answer preflights on unknown paths too.
 */
export async function corsHeaders(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('access-control-allow-origin', '*');
  reply.header(
    'access-control-expose-headers',
    'ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id',
  );
}

export function preflight(_request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(204)
    .header('allow', 'GET, HEAD, OPTIONS')
    .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
    .header('access-control-allow-headers', 'Authorization, If-None-Match, X-Request-Id')
    .header('access-control-max-age', '86400')
    .send();
}
