import { z } from 'zod';
import { isValidIsoDate } from '../../domain/calendar-date.js';
import { NoDataError } from '../../domain/errors.js';
import { ratesBetween } from '../../domain/range-queries.js';
import { latestRates, ratesAsOf, type RateSet, type RateSetQuery } from '../../domain/rate-queries.js';
import { defineEndpoint } from '../endpoints/endpoint.js';
import { closing, code, CODE_LIST, MESSAGES, placesOf, text } from '../endpoints/parameters.js';
import { code as codeText, isoDate } from '../openapi/response-schemas.js';
import { dropInResponses, FRANKFURTER_V2 } from './dialects.js';
import { jsonNumber } from './json-numbers.js';

/** Frankfurter v2's own parameter names, in our wording. */
const V2_MESSAGES = {
  from: 'from must be a valid calendar date in YYYY-MM-DD format',
  to: 'to must be a valid calendar date in YYYY-MM-DD format',
  quote: 'quote must be a 3-letter currency code',
  quotes: 'quotes must be a comma-separated list of 3-letter currency codes',
  dateWithRange: 'date cannot be combined with from or to',
  toWithoutFrom: 'to needs from',
  order: 'to must not be before from',
} as const;

const calendarDate = (message: string) => z.string({ error: message }).refine(isValidIsoDate, { error: message });
const isDate = (value: unknown): value is string => typeof value === 'string' && isValidIsoDate(value);

// `providers` is where `source=ID` (DECISIONS §15) will plug in: one more key here, passed on as the query's source.
const v2RatesQuery = z
  .object({
    date: calendarDate(MESSAGES.date).optional().describe('The rates of this day (default: the latest); a day without rates answers the nearest earlier one'),
    from: calendarDate(V2_MESSAGES.from).optional().describe('First day of a range'),
    to: calendarDate(V2_MESSAGES.to).optional().describe('Last day of a range (default: the newest day)'),
    base: code(MESSAGES.base).optional().describe('Base currency (default EUR)'),
    quotes: text(CODE_LIST, V2_MESSAGES.quotes).optional().describe('Comma-separated quote currencies (default: every one)'),
    ...closing,
  })
  .superRefine((query, ctx) => {
    if (query.date !== undefined && (query.from !== undefined || query.to !== undefined)) ctx.addIssue({ code: 'custom', message: V2_MESSAGES.dateWithRange });
    else if (query.to !== undefined && query.from === undefined) ctx.addIssue({ code: 'custom', message: V2_MESSAGES.toWithoutFrom });
    else if (isDate(query.from) && isDate(query.to) && query.to < query.from) ctx.addIssue({ code: 'custom', message: V2_MESSAGES.order });
  });

/** One record of v2's flat answer: `{date, base, quote, rate}`, the rate a JSON number. */
const record = (date: string, base: string, quote: string, rate: string) =>
  `{"date":"${date}","base":${JSON.stringify(base)},"quote":${JSON.stringify(quote)},"rate":${jsonNumber(rate)}}`;

const Rate = z
  .strictObject({
    date: isoDate.describe('The day of the rate'),
    base: codeText,
    quote: codeText,
    rate: z.number().describe('Units of the quote per one unit of the base, written from the exact value'),
  })
  .meta({ id: 'FrankfurterV2Rate', examples: [{ date: '2026-04-13', base: 'EUR', quote: 'USD', rate: 1.1684 }] });

const common = { tags: [FRANKFURTER_V2.tag], conditional: true };

export const v2RatesEndpoint = defineEndpoint({
  path: '/v2/rates',
  query: v2RatesQuery,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV2Rates',
    summary: 'Frankfurter v2: rates',
    description:
      'A flat array of `{date, base, quote, rate}`, by day then quote, the base itself among them (rate 1) unless `quotes` ' +
      'leaves it out: the latest day, the day `date` (or the nearest earlier one with rates), or every day from `from` to `to` (any length, sent in pieces as the client reads it).',
    parameters: { base: { example: 'EUR' }, quotes: { example: 'USD,GBP' } },
    responses: dropInResponses(FRANKFURTER_V2, { body: z.array(Rate), description: 'The rates' }, 'No rates for the base on the day, or in the range', {
      validated: true,
      keyed: true,
    }),
  },
  body: ({ ratesOf, tracked }, { query }): RatesByDay => {
    const snapshot = ratesOf(query.source);
    const asked: RateSetQuery = { base: query.base, symbols: query.quotes?.split(','), places: placesOf(query.precision) };
    if (query.from !== undefined) return ratesBetween(snapshot, tracked, { start: query.from, end: query.to }, asked);
    const set = query.date === undefined ? latestRates(snapshot, tracked, asked) : ratesAsOf(snapshot, tracked, query.date, asked);
    return { base: set.base, days: () => [[set.date, set.rates]] };
  },
  written: { json: v2RatesJson },
});

/** What `/v2/rates` answers: a base and its rate sets by day, one day's or a range's (a RateRange, its days computed as read). */
interface RatesByDay {
  base: string;
  days(): Iterable<[date: string, rates: Readonly<Record<string, string>>]>;
}

/** v2's flat array, written day by day (DECISIONS §14): the whole history is megabytes. */
function* v2RatesJson({ base, days }: RatesByDay): Iterable<string> {
  yield '[';
  let separator = '';
  for (const [date, rates] of days()) {
    const records = Object.entries(rates).map(([quote, rate]) => record(date, base, quote, rate));
    if (records.length === 0) continue;
    yield `${separator}${records.join(',')}`;
    separator = ',';
  }
  yield ']';
}

const pairParams = z.object({
  base: code(MESSAGES.base).describe('Base currency'),
  quote: code(V2_MESSAGES.quote).describe('Quote currency'),
});

const pairQuery = z.object({
  date: calendarDate(MESSAGES.date).optional().describe('The rate of this day (default: the latest); a day without it answers the nearest earlier one'),
  ...closing,
});

export const v2RateEndpoint = defineEndpoint({
  path: '/v2/rate/:base/:quote',
  params: pairParams,
  query: pairQuery,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV2Rate',
    summary: 'Frankfurter v2: one pair',
    description: 'The rate of one pair, latest or on `date` (or the nearest earlier day with it); a currency against itself is 1.',
    parameters: { base: { example: 'EUR' }, quote: { example: 'USD' } },
    responses: dropInResponses(FRANKFURTER_V2, { body: Rate, description: 'The rate' }, 'No rate for the pair on that day or any day before it', {
      validated: true,
      keyed: true,
    }),
  },
  body: ({ ratesOf, tracked }, { params, query }): { set: RateSet; quote: string } => {
    const snapshot = ratesOf(query.source);
    const asked: RateSetQuery = { base: params.base, symbols: [params.quote], places: placesOf(query.precision) };
    const set = query.date === undefined ? latestRates(snapshot, tracked, asked) : ratesAsOf(snapshot, tracked, query.date, asked);
    const quote = params.quote.toUpperCase();
    if (set.rates[quote] === undefined) throw new NoDataError(query.date);
    return { set, quote };
  },
  json: ({ set, quote }) => record(set.date, set.base, quote, set.rates[quote]!),
});
