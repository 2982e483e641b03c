import type { ZodType, z } from 'zod';
import type { TrackedCurrencies } from '../domain/currencies.js';
import { positiveAmount, type Decimal } from '../domain/money.js';
import { usageOf } from '../domain/quota.js';
import { fluctuation, ratesBetween, type DateRange, type RateRange } from '../domain/range-queries.js';
import { bulkConversion, conversion, conversionPlan, latestRates, ratesOn, type ConversionPlan } from '../domain/rate-queries.js';
import type { RatesSnapshot } from '../domain/snapshot.js';
import type { SourceDescription, StoredSpan } from '../domain/source-values.js';
import type { Counted } from './hooks/count-request.js';
import { rateRangeCsv, rateRangeJson } from './rate-range-formats.js';
import { bulkQuery, convertQuery, dateParams, rangeParams, rateSetQuery } from './request-schemas.js';

/** What an endpoint computes its answer from: the rates in memory, the currencies served, the enabled sources. */
export interface RatesData {
  snapshot: RatesSnapshot;
  tracked: TrackedCurrencies;
  /** The enabled sources, in SOURCES order. */
  sources: readonly SourceDescription[];
}

/** GET /sources' entry of one enabled source (docs/api.md): no codes and null days before its first ingestion. */
const sourceEntry = ({ id, name, base, url }: SourceDescription, span: StoredSpan | undefined) => ({
  id, name, base, url, codes: span?.codes ?? [], first_day: span?.firstDay ?? null, last_day: span?.lastDay ?? null,
});

/** One API endpoint as data: its route, the schemas of its input, and its 200 body. */
export interface Endpoint {
  /** The route template, as Fastify, the logs and the metrics name it. */
  url: string;
  schema: { params?: ZodType; querystring?: ZodType };
  /** Whether the URL alone (with the data version) fixes the 200 body, so it can be kept and sent again. */
  cacheable: boolean;
  /**
   * The 200 body for validated input; throws the domain's refusals (unknown currency, no data, amount
   * not positive). `counted`: how the quota counted this request (for GET /usage).
   */
  body(data: RatesData, params: unknown, query: unknown, counted: Counted): unknown;
  /** The 200 body's JSON text, where the endpoint writes it itself (else JSON.stringify of it). */
  json?(body: unknown): string;
  /** The 200 body as CSV, for a client that prefers `text/csv` (errors stay JSON). */
  csv?(body: unknown): string;
}

type RateSetQuery = z.infer<typeof rateSetQuery>;

const rateSet = (query: unknown) => {
  const { base, symbols } = query as RateSetQuery;
  return { base, symbols: symbols?.split(',') };
};

const dateRange = (params: unknown): DateRange => {
  const { start, end } = params as z.infer<typeof rangeParams>;
  return { start, end: end === '' ? undefined : end };
};

/**
 * A conversion endpoint. Its amount's positivity is checked after the format rules and before
 * the currencies (DECISIONS §1); its URL carries the amount and rarely repeats, so it is not cached.
 */
function conversionEndpoint(
  url: string,
  querystring: ZodType<{ from: string; to: string; amount: string; date?: string | undefined }>,
  answer: (plan: ConversionPlan, amountText: string, amount: Decimal) => unknown,
): Endpoint {
  return {
    url,
    schema: { querystring },
    cacheable: false,
    body: ({ snapshot, tracked }, _params, query) => {
      const { from, to, amount, date } = query as { from: string; to: string; amount: string; date?: string };
      const value = positiveAmount(amount);
      return answer(conversionPlan(snapshot, tracked, from, to, date), amount, value);
    },
  };
}

export const API_ENDPOINTS: readonly Endpoint[] = [
  {
    url: '/api/v1/rates/latest',
    schema: { querystring: rateSetQuery },
    cacheable: true,
    body: ({ snapshot, tracked }, _params, query) => latestRates(snapshot, tracked, rateSet(query)),
  },
  {
    url: '/api/v1/rates/:date',
    schema: { params: dateParams, querystring: rateSetQuery },
    cacheable: true,
    body: ({ snapshot, tracked }, params, query) => ratesOn(snapshot, tracked, (params as z.infer<typeof dateParams>).date, rateSet(query)),
  },
  {
    url: '/api/v1/rates/:start..:end',
    schema: { params: rangeParams, querystring: rateSetQuery },
    cacheable: true,
    body: ({ snapshot, tracked }, params, query) => ratesBetween(snapshot, tracked, dateRange(params), rateSet(query)),
    json: (body) => rateRangeJson(body as RateRange),
    csv: (body) => rateRangeCsv(body as RateRange),
  },
  {
    url: '/api/v1/fluctuation/:start..:end',
    schema: { params: rangeParams, querystring: rateSetQuery },
    cacheable: true,
    body: ({ snapshot, tracked }, params, query) => fluctuation(snapshot, tracked, dateRange(params), rateSet(query)),
  },
  conversionEndpoint('/api/v1/convert', convertQuery, conversion),
  conversionEndpoint('/api/v1/convert/bulk', bulkQuery, bulkConversion),
  {
    url: '/api/v1/currencies',
    schema: {},
    cacheable: true,
    body: ({ tracked }) => tracked.list,
  },
  {
    // DECISIONS §9: from the snapshot, so kept by its version like the rates.
    url: '/api/v1/sources',
    schema: {},
    cacheable: true,
    body: ({ snapshot, sources }) => sources.map((source) => sourceEntry(source, snapshot.spanOf(source.id))),
  },
  {
    // DECISIONS §10: counted like any request, so the answer includes itself; never the same twice.
    url: '/api/v1/usage',
    schema: {},
    cacheable: false,
    body: (_data, _params, _query, { policy, decision }) => usageOf(policy, decision),
  },
];
