import type { FastifyInstance } from 'fastify';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import { sendJson } from '../send-json.js';

export function currenciesRoutes(app: FastifyInstance, tracked: TrackedCurrencies): void {
  app.get('/api/v1/currencies', (request, reply) => sendJson(request, reply, tracked.list));
}
