import type { RouteOptions } from 'fastify';
import { z, type ZodType } from 'zod';
import {
  BadRequest,
  BulkConversion,
  Conversion,
  CurrencyList,
  Fluctuation,
  Health,
  NotFound,
  QuotaExceeded,
  RateRange,
  RateSet,
  Ready,
  ServiceUnavailable,
  SourceList,
  Unauthorized,
  Usage,
} from './response-schemas.js';

/** A response header as the OpenAPI document shows it (a JSON schema with a description). */
type HeaderDoc = { description: string } & Record<string, unknown>;

interface ResponseDoc {
  description: string;
  /** The JSON body; none for 304. */
  body?: ZodType;
  headers: Record<string, HeaderDoc>;
}

export interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  /** `[]` for the routes that need no key; the document's default (the bearer key) otherwise. */
  security?: [];
  /** Whether the route honours If-None-Match (the API routes do). */
  conditional: boolean;
  /** Whether the 200 is also given as CSV, on `Accept: text/csv`. */
  csv?: boolean;
  /**
   * What the document adds to a parameter's schema where a zod refinement says it in code only
   * (a calendar date, the bulk list), and examples that Swagger UI's "Try it out" fills in.
   */
  parameters?: Record<string, Record<string, unknown>>;
  responses: Record<number, ResponseDoc>;
}

const REQUEST_ID: Record<string, HeaderDoc> = {
  'X-Request-Id': {
    description: 'The request id: the X-Request-Id sent (up to 128 of A-Z a-z 0-9 _ . : -), else a generated one; logs carry it',
    type: 'string',
  },
};
const RATE_LIMIT: Record<string, HeaderDoc> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per quota period', type: 'integer', minimum: 1 },
  'X-RateLimit-Remaining': { description: 'Requests left in the period after this one', type: 'integer', minimum: 0 },
  'X-RateLimit-Reset': { description: 'When the period ends, in Unix seconds', type: 'integer' },
};
const RETRY_AFTER: Record<string, HeaderDoc> = {
  'Retry-After': { description: 'Seconds to wait before retrying', type: 'integer', minimum: 1 },
};
const ETAG: Record<string, HeaderDoc> = {
  ETag: { description: 'Strong validator of the body: send it in If-None-Match to get a 304 while it holds', type: 'string' },
};
const WWW_AUTHENTICATE: Record<string, HeaderDoc> = {
  'WWW-Authenticate': { description: 'The scheme to use', type: 'string', const: 'Bearer' },
};

/** The answers every route behind the key shares, as SPEC §5, §7 and DECISIONS §1, §4 describe them. */
function apiResponses(ok: { body: ZodType; description: string }, notFound: string | undefined, validated: boolean): Record<number, ResponseDoc> {
  const responses: Record<number, ResponseDoc> = {
    200: { ...ok, headers: { ...ETAG, ...RATE_LIMIT, ...REQUEST_ID } },
    304: {
      description: 'Not Modified: If-None-Match names the current ETag (the request still counts)',
      headers: { ...ETAG, ...RATE_LIMIT, ...REQUEST_ID },
    },
  };
  if (validated) {
    responses[400] = {
      description:
        'A parameter breaks a format rule (`message`: an array with every failed rule, in parameter order); ' +
        'or, once every format holds, the amount is not positive or a currency is not tracked (`message`: one string)',
      body: BadRequest,
      headers: { ...RATE_LIMIT, ...REQUEST_ID },
    };
  }
  responses[401] = {
    description: 'The Authorization header is missing or malformed, or the key is invalid or revoked (not counted)',
    body: Unauthorized,
    headers: { ...WWW_AUTHENTICATE, ...REQUEST_ID },
  };
  if (notFound !== undefined) responses[404] = { description: notFound, body: NotFound, headers: { ...RATE_LIMIT, ...REQUEST_ID } };
  responses[429] = {
    description: "The key's quota for the current period is used up (not counted)",
    body: QuotaExceeded,
    headers: { ...RATE_LIMIT, ...RETRY_AFTER, ...REQUEST_ID },
  };
  responses[503] = {
    description: 'A storage backend cannot be reached: the request was neither answered nor counted; retry shortly',
    body: ServiceUnavailable,
    headers: { ...RETRY_AFTER, ...REQUEST_ID },
  };
  return responses;
}

const NO_DATA = 'No data: nothing has been ingested yet, or no day has a rate for every currency asked for';
const NO_DATA_ON_DATE = '; with `date`, that day has no rate for one of them (`No exchange rate data available for YYYY-MM-DD`)';
const NO_DATA_IN_RANGE =
  'No day of the range has a rate for the base (`No exchange rate data available between START and END`, ' +
  'or `… available from START` with an open end)';

/** The parameters of a `{start}..{end}` route, with the examples "Try it out" fills in. */
const rangeParameters = (start: string, end: string) => ({
  start: { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: start },
  end: { pattern: '^(\\d{4}-\\d{2}-\\d{2})?$', example: end },
  base: { example: 'EUR' },
  symbols: { example: 'USD,GBP' },
});

/** Documentation of every documented route, by URL (GET; HEAD mirrors it without a body). */
export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  '/api/v1/rates/latest': {
    operationId: 'getLatestRates',
    summary: 'Latest rates',
    description:
      'The most recent day on which the base and every requested symbol have a rate (a currency the ECB stopped ' +
      'quoting gives its last day, shown in `date`).',
    tags: ['Rates'],
    conditional: true,
    parameters: { base: { example: 'EUR' }, symbols: { example: 'USD,GBP,JPY' } },
    responses: apiResponses({ body: RateSet, description: 'The rate set' }, NO_DATA, true),
  },
  '/api/v1/rates/:date': {
    operationId: 'getRatesOnDate',
    summary: 'Rates on a date',
    description:
      'Rates of exactly that day. Weekends, holidays and future dates are valid dates without rates: 404, with no fallback ' +
      '(a bank publishing the next day in advance gives that day rates).',
    tags: ['Rates'],
    conditional: true,
    parameters: {
      date: { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2025-12-31' },
      base: { example: 'EUR' },
      symbols: { example: 'BGN,USD' },
    },
    responses: apiResponses(
      { body: RateSet, description: 'The rate set of that day' },
      'No rates for that date (`No exchange rate data available for YYYY-MM-DD`)',
      true,
    ),
  },
  '/api/v1/rates/:start..:end': {
    operationId: 'getRatesBetween',
    summary: 'Rates over a range of days',
    description:
      'The rate set of every day from `start` to `end` (both included) on which the base has a rate, oldest first; ' +
      'each as `/rates/{date}` gives it, a symbol without a rate that day left out of that day. An empty `end` ' +
      '(`2020-01-01..`) reaches the newest day. Any length, the whole history included, counts as one request. ' +
      'With `Accept: text/csv`: a header `date,CODE,…` (the codes of the answer, alphabetical) and one row per day, ' +
      'an empty cell where a day has no rate; errors stay JSON.',
    tags: ['Rates'],
    conditional: true,
    csv: true,
    parameters: rangeParameters('2026-01-02', '2026-01-09'),
    responses: apiResponses({ body: RateRange, description: 'The rate sets by day' }, NO_DATA_IN_RANGE, true),
  },
  '/api/v1/fluctuation/:start..:end': {
    operationId: 'getFluctuation',
    summary: 'How rates moved over a range',
    description:
      'For each currency of the range\'s rate sets: its first and last day in the range with a rate, both rates, ' +
      'and `change` = end − start and `change_pct` = (end − start) / start × 100, from the exact rates, rounded once.',
    tags: ['Rates'],
    conditional: true,
    parameters: rangeParameters('2025-01-02', '2025-12-31'),
    responses: apiResponses({ body: Fluctuation, description: 'The moves by currency' }, NO_DATA_IN_RANGE, true),
  },
  '/api/v1/convert': {
    operationId: 'convert',
    summary: 'Convert an amount',
    description: '`result` is amount × rate(to) / rate(from), computed in exact decimals and rounded once, half-up, to 6 decimals.',
    tags: ['Conversion'],
    conditional: true,
    parameters: { from: { example: 'USD' }, to: { example: 'JPY' }, amount: { example: '100' }, date: { format: 'date', example: '2025-12-31' } },
    responses: apiResponses({ body: Conversion, description: 'The conversion' }, NO_DATA + NO_DATA_ON_DATE, true),
  },
  '/api/v1/convert/bulk': {
    operationId: 'convertBulk',
    summary: 'Convert an amount into several currencies',
    description: 'Up to 25 targets; repeated targets collapse to one entry, in the order requested.',
    tags: ['Conversion'],
    conditional: true,
    parameters: {
      from: { example: 'GBP' },
      amount: { example: '250.50' },
      to: { pattern: '^[A-Za-z]{3}(,[A-Za-z]{3}){0,24}$', example: 'USD,JPY,CHF' },
      date: { format: 'date', example: '2025-12-31' },
    },
    responses: apiResponses({ body: BulkConversion, description: 'The conversions' }, NO_DATA + NO_DATA_ON_DATE, true),
  },
  '/api/v1/currencies': {
    operationId: 'listCurrencies',
    summary: 'Supported currencies',
    description: 'Every served currency, sorted by code, with its CLDR English name and narrow symbol. Works before any ingestion.',
    tags: ['Currencies'],
    conditional: true,
    responses: apiResponses({ body: CurrencyList, description: 'The currencies' }, undefined, false),
  },
  '/api/v1/sources': {
    operationId: 'listSources',
    summary: 'Enabled rate sources',
    description:
      'Each central bank the server is set to use (SOURCES), in priority order, with the currencies stored from it and ' +
      'its first and last stored day (null before its first ingestion). Works before any ingestion.',
    tags: ['Currencies'],
    conditional: true,
    responses: apiResponses({ body: SourceList, description: 'The sources' }, undefined, false),
  },
  '/api/v1/usage': {
    operationId: 'getUsage',
    summary: "The key's quota and usage",
    description:
      "The calling key's quota (its own, else the server's default), how much of it the current period has used, this " +
      'request included (it counts like any other), and when the period began and ends. The numbers are those of the ' +
      "answer's X-RateLimit headers; once the quota is used up the answer is the 429.",
    tags: ['Usage'],
    conditional: true,
    responses: apiResponses({ body: Usage, description: 'The usage' }, undefined, false),
  },
  '/health': {
    operationId: 'health',
    summary: 'Liveness',
    description: 'The process is up. No key; not counted.',
    tags: ['Operations'],
    security: [],
    conditional: false,
    responses: { 200: { description: 'Up', body: Health, headers: REQUEST_ID } },
  },
  '/ready': {
    operationId: 'ready',
    summary: 'Readiness',
    description: 'Every storage backend answers. No key; not counted.',
    tags: ['Operations'],
    security: [],
    conditional: false,
    responses: {
      200: { description: 'Ready', body: Ready, headers: REQUEST_ID },
      503: { description: 'A backend cannot be reached', body: ServiceUnavailable, headers: REQUEST_ID },
    },
  },
};

/** The request headers the document lists for a route (as a JSON schema of the headers object). */
export function requestHeadersDoc(doc: RouteDoc): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    'X-Request-Id': { type: 'string', maxLength: 128, pattern: '^[\\w.:-]+$', description: 'Your id for this request, echoed back and logged' },
  };
  if (doc.conditional) {
    properties['If-None-Match'] = { type: 'string', description: 'An ETag from an earlier answer: 304 while the body is unchanged' };
  }
  return { type: 'object', properties };
}

const CSV_BODY = z.string().describe('`date,CODE,…` then one row per day (RFC 4180, CRLF line ends)');

/** Fastify `schema.response`: the zod bodies by status (304 has none); a CSV 200 beside the JSON one. */
function responseSchemas(doc: RouteDoc): Record<number, unknown> {
  const response: Record<number, unknown> = {};
  for (const [status, { description, body }] of Object.entries(doc.responses)) {
    const content: Record<string, { schema: ZodType }> = body === undefined ? {} : { 'application/json': { schema: body } };
    if (doc.csv && status === '200') content['text/csv'] = { schema: CSV_BODY };
    response[Number(status)] = body === undefined ? z.undefined().describe(description) : { description, content };
  }
  return response;
}

/**
 * onRoute: attaches the documentation (summary, tags, response bodies) to the routes it knows,
 * so the route files stay about behaviour. Added before any route is registered.
 */
export function documentRoute(routeOptions: RouteOptions): void {
  if (routeOptions.method !== 'GET') return;
  const doc = ROUTE_DOCS[routeOptions.url];
  if (doc === undefined) return;
  routeOptions.schema = {
    ...routeOptions.schema,
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags: doc.tags,
    ...(doc.security ? { security: doc.security } : {}),
    response: responseSchemas(doc),
  };
}
