import type { FastifyInstance } from 'fastify';
import { loggableError } from '../../loggable-error.js';
import { HttpError, JSON_TYPE, sendError, UNAVAILABLE } from '../errors.js';
import { Health, Ready, ServiceUnavailable } from '../openapi/response-schemas.js';
import { documented, REQUEST_ID } from '../openapi/route-docs.js';

export interface Readiness {
  /** Rejects when the instance cannot answer API requests correctly (its quota store cannot be reached). */
  ping(): Promise<void>;
}

const HEALTH = documented({
  operationId: 'health',
  summary: 'Liveness',
  description: 'The process is up. No key; not counted.',
  tags: ['Operations'],
  security: [],
  conditional: false,
  responses: { 200: { description: 'Up', body: Health, headers: REQUEST_ID } },
});

const READY = documented({
  operationId: 'ready',
  summary: 'Readiness',
  description: 'Every storage backend answers. No key; not counted.',
  tags: ['Operations'],
  security: [],
  conditional: false,
  responses: {
    200: { description: 'Ready', body: Ready, headers: REQUEST_ID },
    503: { description: 'A backend cannot be reached', body: ServiceUnavailable, headers: REQUEST_ID },
  },
});

/** For load balancers and orchestrators: no key, not counted. */
export function healthRoutes(app: FastifyInstance, readiness: Readiness, draining: () => boolean): void {
  app.get('/health', HEALTH, async (_request, reply) => reply.type(JSON_TYPE).send('{"status":"ok"}'));
  app.get('/ready', READY, async (request, reply) => {
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
