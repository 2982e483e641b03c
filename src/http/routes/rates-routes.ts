import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { latestRates, ratesOn } from '../../domain/rate-queries.js';
import { answer, type RouteContext } from '../answer.js';
import { dateParams, rateSetQuery } from '../request-schemas.js';

type RateSetQuery = z.infer<typeof rateSetQuery>;

const parsed = (query: RateSetQuery) => ({ base: query.base, symbols: query.symbols?.split(',') });

export function ratesRoutes(app: FastifyInstance, context: RouteContext): void {
  const { view, tracked } = context;
  app.get('/api/v1/rates/latest', { schema: { querystring: rateSetQuery } }, (request, reply) =>
    answer(context, request, reply, () => latestRates(view.snapshot, tracked, parsed(request.query as RateSetQuery))),
  );

  app.get('/api/v1/rates/:date', { schema: { params: dateParams, querystring: rateSetQuery } }, (request, reply) => {
    const { date } = request.params as z.infer<typeof dateParams>;
    return answer(context, request, reply, () => ratesOn(view.snapshot, tracked, date, parsed(request.query as RateSetQuery)));
  });
}
