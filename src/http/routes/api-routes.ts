import type { FastifyInstance } from 'fastify';
import { bodyFor, type RouteContext } from '../answer.js';
import { API_ENDPOINTS } from '../endpoints.js';
import { sendRendered } from '../response-cache.js';

/** The API's GET routes, from their definitions; input is validated by the validateInput hook first. */
export function apiRoutes(app: FastifyInstance, context: RouteContext): void {
  for (const endpoint of API_ENDPOINTS) {
    const schema = Object.keys(endpoint.schema).length > 0 ? { schema: endpoint.schema } : {};
    app.get(endpoint.url, schema, (request, reply) =>
      sendRendered(request, reply, bodyFor(context, endpoint, request.url, request.params, request.query)),
    );
  }
}
