import type { ZodType, z } from 'zod';
import { decimal, isPositive } from '../domain/money.js';
import { bulkPlan, convert, latestRates, ratesOn } from '../domain/rate-queries.js';
import type { RouteContext } from './answer.js';
import { bulkJson } from './bulk-json.js';
import { HttpError } from './errors.js';
import { Json } from './response-cache.js';
import { bulkQuery, convertQuery, dateParams, MESSAGES, rateSetQuery } from './request-schemas.js';

/**
 * One API endpoint as data: its path, the schemas of its input, and the body it computes from
 * valid input. Both ways a request is answered use these same definitions: the Fastify routes
 * (api-routes.ts) and the fast path (fast-path.ts), so they cannot compute differently.
 */
export interface Endpoint {
  /** The route template, as Fastify and the logs and metrics name it. */
  url: string;
  schema: { params?: ZodType; querystring?: ZodType };
  /** 200 bodies that the URL alone determines (with the data version) are kept in the response cache. */
  cacheable: boolean;
  /** The 200 body for validated input; throws a domain error or HttpError for anything else. */
  compute(context: RouteContext, params: unknown, query: unknown): unknown;
}

type RateSetQuery = z.infer<typeof rateSetQuery>;
const rateSet = (query: unknown) => {
  const { base, symbols } = query as RateSetQuery;
  return { base, symbols: symbols?.split(',') };
};

/** DECISIONS §1.5: checked after every format rule, before currencies are looked up. */
function requirePositive(amount: string): void {
  if (!isPositive(decimal(amount))) throw new HttpError(400, MESSAGES.amountPositive);
}

export const API_ENDPOINTS: readonly Endpoint[] = [
  {
    url: '/api/v1/rates/latest',
    schema: { querystring: rateSetQuery },
    cacheable: true,
    compute: ({ view, tracked }, _params, query) => latestRates(view.snapshot, tracked, rateSet(query)),
  },
  {
    url: '/api/v1/rates/:date',
    schema: { params: dateParams, querystring: rateSetQuery },
    cacheable: true,
    compute: ({ view, tracked }, params, query) =>
      ratesOn(view.snapshot, tracked, (params as z.infer<typeof dateParams>).date, rateSet(query)),
  },
  {
    url: '/api/v1/convert',
    schema: { querystring: convertQuery },
    // Conversion URLs carry an amount and rarely repeat: caching them would only churn the heap.
    cacheable: false,
    compute: ({ view, tracked }, _params, query) => {
      const q = query as z.infer<typeof convertQuery>;
      requirePositive(q.amount);
      return convert(view.snapshot, tracked, q);
    },
  },
  {
    url: '/api/v1/convert/bulk',
    schema: { querystring: bulkQuery },
    cacheable: false,
    compute: ({ view, tracked }, _params, query) => {
      const q = query as z.infer<typeof bulkQuery>;
      requirePositive(q.amount);
      return new Json(bulkJson(bulkPlan(view.snapshot, tracked, q.from, q.to), q.amount));
    },
  },
  {
    url: '/api/v1/currencies',
    schema: {},
    cacheable: true,
    compute: ({ tracked }) => tracked.list,
  },
];
