import type { FastifyInstance } from 'fastify';
import { answer, type RouteContext } from '../answer.js';

export function currenciesRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get('/api/v1/currencies', (request, reply) => answer(context, request, reply, () => context.tracked.list));
}
