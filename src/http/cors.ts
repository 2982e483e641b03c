import type { FastifyReply, FastifyRequest } from 'fastify';

/** DECISIONS §7: the CORS preflight of a known path; no key needed, not counted. */
export function preflight(_request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(204)
    .header('allow', 'GET, HEAD, OPTIONS')
    .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
    .header('access-control-allow-headers', 'Authorization, If-None-Match, X-Request-Id')
    .header('access-control-max-age', '86400')
    .send();
}
