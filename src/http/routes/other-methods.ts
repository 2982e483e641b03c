import { METHODS } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { preflight } from '../cors.js';
import { API_ENDPOINTS } from '../endpoints/api-endpoints.js';
import type { ApiEndpoint } from '../endpoints/endpoint.js';
import { HttpError, sendError } from '../errors.js';
import { requestPath } from '../request-path.js';

/** Served on an API path: GET and HEAD by the API, OPTIONS as the CORS preflight. */
const SERVED = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Every other method Node's parser hands over (PROPFIND, SEARCH, LOCK, …), not only those Fastify
 * routes by default: a method it does not know would fall through to the 404 of an unknown path.
 * CONNECT is not among them: Node never routes it (without a `connect` listener it closes the socket).
 */
const REFUSED = [...new Set(['DELETE', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY', ...METHODS])].filter(
  (method) => !SERVED.includes(method) && method !== 'CONNECT',
);

/**
 * DECISIONS §1.1: on a known path, OPTIONS is the CORS preflight and any other method but
 * GET/HEAD is a 405; neither needs a key nor counts. Answered in onRequest, before any body is read.
 */
export function otherMethodRoutes(app: FastifyInstance, endpoints: readonly ApiEndpoint[] = API_ENDPOINTS): void {
  // The set of methods is the whole server's (plugins share it); the routes below stay on API paths.
  for (const method of REFUSED) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  for (const { path: url } of endpoints) {
    app.route({ method: 'OPTIONS', url, onRequest: async (request, reply) => preflight(request, reply), handler: async () => undefined });
    app.route({
      method: REFUSED,
      url,
      onRequest: async (request, reply) => {
        reply.header('allow', 'GET, HEAD');
        return sendError(reply, new HttpError(405, `Cannot ${request.method} ${requestPath(request.url)}`));
      },
      handler: async () => undefined,
    });
  }
}
