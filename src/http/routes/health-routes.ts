import type { FastifyInstance } from 'fastify';
import { loggableError } from '../../loggable-error.js';
import { HttpError, JSON_TYPE, sendError, UNAVAILABLE } from '../errors.js';

export interface Readiness {
  /** Rejects when the instance cannot answer API requests correctly (its quota store cannot be reached). */
  ping(): Promise<void>;
}

/** For load balancers and orchestrators: no key, not counted. */
export function healthRoutes(app: FastifyInstance, readiness: Readiness, draining: () => boolean): void {
  app.get('/health', async (_request, reply) => reply.type(JSON_TYPE).send('{"status":"ok"}'));
  app.get('/ready', async (request, reply) => {
    // Shutting down: the load balancer should send nothing more here.
    if (draining()) return sendError(reply, new HttpError(503, 'The server is shutting down'));
    try {
      await readiness.ping();
    } catch (err) {
      // The outage itself is logged once by the stores, not once per probe.
      request.log.debug({ err: loggableError(err) }, 'not ready');
      return sendError(reply, new HttpError(503, UNAVAILABLE));
    }
    return reply.type(JSON_TYPE).send('{"status":"ready"}');
  });
}
