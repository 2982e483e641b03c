import type { FastifyReply, FastifyRequest } from 'fastify';

/** onSend: once the server is shutting down (DECISIONS §11), every answer closes its connection. */
export function closeWhenDraining(draining: () => boolean) {
  return function closeWhenDraining(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
    if (draining()) reply.header('connection', 'close');
    done(null, payload);
  };
}
