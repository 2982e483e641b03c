import type { ZodType, z } from 'zod';
import { decimal, isPositive, type Decimal } from '../domain/money.js';
import { conversionPlan, latestRates, ratesOn } from '../domain/rate-queries.js';
import type { RouteContext } from './answer.js';
import { bulkAnswer, conversionAnswer } from './conversion-answers.js';
import { HttpError } from './errors.js';
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
  /** For conversions: the query parameter that alone varies between asks of one question (conversion-questions.ts). */
  amountParameter?: string;
  /**
   * Checks validated input against the data, and returns what makes the 200 body from it. Every
   * refusal (a domain error or HttpError) is thrown here, never by the function returned: the fast
   * path counts the request between the two, and makes the body only once it has been counted.
   */
  compute(context: RouteContext, params: unknown, query: unknown): () => unknown;
}

type RateSetQuery = z.infer<typeof rateSetQuery>;
/**
 * A body computed while the input is checked: a rate set is made of the lookups that check it,
 * and the response cache keeps it for the URL.
 */
const already =
  <T>(value: T) =>
  () =>
    value;

const rateSet = (query: unknown) => {
  const { base, symbols } = query as RateSetQuery;
  return { base, symbols: symbols?.split(',') };
};

/**
 * A conversion endpoint. Its amount must be positive (DECISIONS §1.5: checked after every format
 * rule, before currencies are looked up) and is parsed once for the check and the arithmetic.
 * Its URL carries that amount and rarely repeats, so its answers are not cached (caching them
 * would only churn the heap). The currencies and the day are checked at once; the results, the
 * costly part of the body, are made by the function returned.
 */
function conversion<Q extends { amount: string }>(
  url: string,
  querystring: ZodType<Q>,
  compute: (context: RouteContext, query: Q, amount: Decimal) => () => unknown,
): Endpoint {
  return {
    url,
    schema: { querystring },
    cacheable: false,
    amountParameter: 'amount',
    compute: (context, _params, query) => {
      const q = query as Q;
      const amount = decimal(q.amount);
      if (!isPositive(amount)) throw new HttpError(400, MESSAGES.amountPositive);
      return compute(context, q, amount);
    },
  };
}

export const API_ENDPOINTS: readonly Endpoint[] = [
  {
    url: '/api/v1/rates/latest',
    schema: { querystring: rateSetQuery },
    cacheable: true,
    compute: ({ view, tracked }, _params, query) => already(latestRates(view.snapshot, tracked, rateSet(query))),
  },
  {
    url: '/api/v1/rates/:date',
    schema: { params: dateParams, querystring: rateSetQuery },
    cacheable: true,
    compute: ({ view, tracked }, params, query) =>
      already(ratesOn(view.snapshot, tracked, (params as z.infer<typeof dateParams>).date, rateSet(query))),
  },
  conversion('/api/v1/convert', convertQuery, ({ view, tracked }, query, amount) => {
    const plan = conversionPlan(view.snapshot, tracked, query.from, query.to);
    return () => conversionAnswer(plan, query.amount, amount);
  }),
  conversion('/api/v1/convert/bulk', bulkQuery, ({ view, tracked }, query, amount) => {
    const plan = conversionPlan(view.snapshot, tracked, query.from, query.to);
    return () => bulkAnswer(plan, query.amount, amount);
  }),
  {
    url: '/api/v1/currencies',
    schema: {},
    cacheable: true,
    compute: ({ tracked }) => already(tracked.list),
  },
];
