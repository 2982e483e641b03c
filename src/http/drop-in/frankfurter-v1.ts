import { z } from 'zod';
import { positiveAmount } from '../../domain/money.js';
import { ratesBetweenAsOf, type RateRange } from '../../domain/range-queries.js';
import { latestRates, ratesAsOf, type RateSet, type RateSetQuery } from '../../domain/rate-queries.js';
import { defineEndpoint } from '../endpoints/endpoint.js';
import { amount, closing, code, CODE_LIST, dateParams, dateRangeOf, MESSAGES, placesOf, rangeParams, text } from '../endpoints/parameters.js';
import { HttpError } from '../errors.js';
import { code as codeText, isoDate } from '../openapi/response-schemas.js';
import { dropInResponses, FRANKFURTER_V1 } from './dialects.js';
import { jsonNumber, ratesByDay, ratesJson } from './json-numbers.js';

/** Frankfurter v1's parameters: `from` or `base`, `to` or `symbols` (the first of each pair wins), `amount`. */
const v1Query = z.object({
  from: code(MESSAGES.from).optional().describe('Base currency (default EUR); wins over `base`'),
  base: code(MESSAGES.base).optional().describe('Base currency, as `from`'),
  to: text(CODE_LIST, MESSAGES.toList).optional().describe('Comma-separated currencies to return; wins over `symbols`'),
  symbols: text(CODE_LIST, MESSAGES.symbols).optional().describe('Comma-separated currencies to return, as `to`'),
  amount: amount.optional().describe('Rates of this amount of the base (default 1), each rounded once'),
  ...closing,
});
type V1Query = z.output<typeof v1Query>;

const PAIR = 'to must name a currency other than the base';

/** The domain query a v1 request asks, and its amount as written for the answer's `amount`. */
function rateSetQueryOf(query: V1Query): { asked: RateSetQuery; amountText: string } {
  const base = query.from ?? query.base;
  const symbols = (query.to ?? query.symbols)?.split(',');
  // Frankfurter v1 refuses a base converted to itself alone ("bad currency pair").
  if (base !== undefined && symbols?.length === 1 && symbols[0]!.toUpperCase() === base.toUpperCase()) throw new HttpError(400, PAIR);
  const value = query.amount === undefined ? undefined : positiveAmount(query.amount);
  return { asked: { base, symbols, places: placesOf(query.precision), amount: value }, amountText: query.amount ?? '1' };
}

/** A v1 rate set: the base is never among the rates (Frankfurter lists the others only). */
const v1RateSet = (set: RateSet, amountText: string) =>
  `{"amount":${jsonNumber(amountText)},"base":${JSON.stringify(set.base)},"date":${JSON.stringify(set.date)},"rates":${ratesJson(set.rates, set.base)}}`;

const rates = z.record(codeText, z.number().meta({ description: 'Units of the currency per `amount` of the base', examples: [1.1684] }));

const V1RateSet = z
  .strictObject({
    amount: z.number().describe('The amount asked for (default 1)'),
    base: codeText.describe('The base currency'),
    date: isoDate.describe('The day of the rates: the one asked for, or the nearest earlier day with rates'),
    rates: rates.describe('Rates by code, alphabetical, the base left out; JSON numbers written from the exact values'),
  })
  .meta({ id: 'FrankfurterV1RateSet', examples: [{ amount: 1, base: 'EUR', date: '2026-04-13', rates: { GBP: 0.87058, USD: 1.1684 } }] });

const V1Range = z
  .strictObject({
    amount: z.number(),
    base: codeText,
    start_date: isoDate.describe('The first day in the answer (the last day with rates on or before the start asked for)'),
    end_date: isoDate.describe('The last day in the answer'),
    rates: z.record(isoDate, rates).describe('Rates by day, oldest first'),
  })
  .meta({ id: 'FrankfurterV1Range' });

const NO_DAY = 'No rates on that day or any day before it, for the base and every currency asked for';
const common = { tags: [FRANKFURTER_V1.tag], conditional: true };
const keyed = { validated: true, keyed: true };

export const v1LatestEndpoint = defineEndpoint({
  path: '/v1/latest',
  query: v1Query,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV1Latest',
    summary: 'Frankfurter v1: latest rates',
    description: 'As `GET /v1/latest` of Frankfurter: the newest day with rates for the base and every currency asked for.',
    parameters: { from: { example: 'EUR' }, to: { example: 'USD,GBP' } },
    responses: dropInResponses(FRANKFURTER_V1, { body: V1RateSet, description: 'The rate set' }, 'Nothing ingested yet', keyed),
  },
  body: ({ ratesOf, tracked }, { query }) => {
    const snapshot = ratesOf(query.source);
    const { asked, amountText } = rateSetQueryOf(query);
    return { set: latestRates(snapshot, tracked, asked), amountText };
  },
  json: ({ set, amountText }) => v1RateSet(set, amountText),
});

export const v1OnDateEndpoint = defineEndpoint({
  path: '/v1/:date',
  params: dateParams,
  query: v1Query,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV1OnDate',
    summary: 'Frankfurter v1: rates of a day',
    description: "The day's rates; on a day without them (a weekend, a holiday), the nearest earlier day's, shown in `date`.",
    parameters: { date: { format: 'date', example: '2026-04-11' }, to: { example: 'USD,GBP' } },
    responses: dropInResponses(FRANKFURTER_V1, { body: V1RateSet, description: 'The rate set' }, NO_DAY, keyed),
  },
  body: ({ ratesOf, tracked }, { params, query }) => {
    const snapshot = ratesOf(query.source);
    const { asked, amountText } = rateSetQueryOf(query);
    return { set: ratesAsOf(snapshot, tracked, params.date, asked), amountText };
  },
  json: ({ set, amountText }) => v1RateSet(set, amountText),
});

export const v1RangeEndpoint = defineEndpoint({
  path: '/v1/:start..:end',
  params: rangeParams,
  query: v1Query,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV1Range',
    summary: 'Frankfurter v1: rates over a range of days',
    description:
      'Every day with rates from `start` (widened back to the last day with rates on or before it, as Frankfurter does) ' +
      'to `end` (empty: the newest day), oldest first; any length, sent in pieces as the client reads it.',
    parameters: { start: { format: 'date', example: '2026-04-11' }, end: { example: '2026-04-13' }, to: { example: 'USD' } },
    responses: dropInResponses(FRANKFURTER_V1, { body: V1Range, description: 'The rate sets by day' }, 'No day of the range has rates for the base and a currency asked for', keyed),
  },
  body: ({ ratesOf, tracked }, { params, query }) => {
    const { asked, amountText } = rateSetQueryOf(query);
    return { range: ratesBetweenAsOf(ratesOf(query.source), tracked, dateRangeOf(params), asked), amountText };
  },
  written: { json: v1RangeJson },
});

/** A v1 range as JSON text, day by day (DECISIONS §14): the whole history is megabytes. */
function* v1RangeJson({ range, amountText }: { range: RateRange; amountText: string }): Iterable<string> {
  const { base, start_date, end_date } = range;
  yield `{"amount":${jsonNumber(amountText)},"base":${JSON.stringify(base)},"start_date":"${start_date}","end_date":"${end_date}","rates":`;
  yield* ratesByDay(range, base);
  yield '}';
}

const V1Currencies = z
  .record(codeText, z.string())
  .meta({ id: 'FrankfurterV1Currencies', description: 'Every served currency: code → English name (CLDR)', examples: [{ EUR: 'Euro', USD: 'US Dollar' }] });

export const v1CurrenciesEndpoint = defineEndpoint({
  path: '/v1/currencies',
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV1Currencies',
    summary: 'Frankfurter v1: currencies',
    description: 'Every served currency, code to name, sorted by code.',
    responses: dropInResponses(FRANKFURTER_V1, { body: V1Currencies, description: 'The currencies' }, undefined, { validated: false, keyed: true }),
  },
  body: ({ tracked }) => Object.fromEntries(tracked.list.map(({ code: currency, name }) => [currency, name])),
});

/** Frankfurter v1's paths, static ones first (`/v1/latest` and `/v1/currencies` before `/v1/{date}`). */
export const FRANKFURTER_V1_ENDPOINTS = [v1LatestEndpoint, v1CurrenciesEndpoint, v1OnDateEndpoint, v1RangeEndpoint];
