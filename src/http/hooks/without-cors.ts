import type { FastifyReply, FastifyRequest } from 'fastify';

/** onSend of GET /metrics: a scraper is no browser page of another origin, so the CORS headers every answer gets are taken off. */
export function withoutCors(_request: FastifyRequest, reply: FastifyReply, _payload: unknown, done: () => void): void {
  reply.removeHeader('access-control-allow-origin').removeHeader('access-control-expose-headers');
  done();
}
