import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import { latestRates, ratesOn } from '../../domain/rate-queries.js';
import type { RatesView } from '../../live/rates-view.js';
import { dateParams, rateSetQuery } from '../request-schemas.js';
import { sendJson } from '../send-json.js';

type RateSetQuery = z.infer<typeof rateSetQuery>;

const symbolsOf = (query: RateSetQuery) => query.symbols?.split(',');

export function ratesRoutes(app: FastifyInstance, view: RatesView, tracked: TrackedCurrencies): void {
  app.get('/api/v1/rates/latest', { schema: { querystring: rateSetQuery } }, (request, reply) => {
    const query = request.query as RateSetQuery;
    return sendJson(request, reply, latestRates(view.snapshot, tracked, { base: query.base, symbols: symbolsOf(query) }));
  });

  app.get('/api/v1/rates/:date', { schema: { params: dateParams, querystring: rateSetQuery } }, (request, reply) => {
    const { date } = request.params as z.infer<typeof dateParams>;
    const query = request.query as RateSetQuery;
    return sendJson(request, reply, ratesOn(view.snapshot, tracked, date, { base: query.base, symbols: symbolsOf(query) }));
  });
}
