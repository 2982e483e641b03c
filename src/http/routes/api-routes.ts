import type { FastifyInstance } from 'fastify';
import { answer, answerUncached, type RouteContext } from '../answer.js';
import { API_ENDPOINTS } from '../endpoints.js';

/** The API's GET routes, from their definitions; input is validated by the validateInput hook first. */
export function apiRoutes(app: FastifyInstance, context: RouteContext): void {
  for (const endpoint of API_ENDPOINTS) {
    const schema = Object.keys(endpoint.schema).length > 0 ? { schema: endpoint.schema } : {};
    app.get(endpoint.url, schema, (request, reply) => {
      const compute = () => endpoint.compute(context, request.params, request.query);
      return endpoint.cacheable ? answer(context, request, reply, compute) : answerUncached(request, reply, compute);
    });
  }
}
