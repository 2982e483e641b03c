import type { FastifyInstance } from 'fastify';
import { preflight } from '../cors.js';
import { HttpError, sendError } from '../errors.js';

export const API_PATHS = [
  '/api/v1/rates/latest',
  '/api/v1/rates/:date',
  '/api/v1/convert',
  '/api/v1/convert/bulk',
  '/api/v1/currencies',
] as const;

const REFUSED = ['DELETE', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY'];

/**
 * DECISIONS §1.1: on a known path, OPTIONS is the CORS preflight and any other method but
 * GET/HEAD is a 405; neither needs a key nor counts. Answered in onRequest, before any body is read.
 */
export function otherMethodRoutes(app: FastifyInstance): void {
  for (const url of API_PATHS) {
    app.route({ method: 'OPTIONS', url, onRequest: async (request, reply) => preflight(request, reply), handler: async () => undefined });
    app.route({
      method: REFUSED,
      url,
      onRequest: async (request, reply) => {
        reply.header('allow', 'GET, HEAD');
        return sendError(reply, new HttpError(405, `Cannot ${request.method} ${request.url.split('?')[0]}`));
      },
      handler: async () => undefined,
    });
  }
}
