import { z } from 'zod';
import { isValidIsoDate } from '../../domain/calendar-date.js';
import { ratesBetween, type RateRange } from '../../domain/range-queries.js';
import { latestRates, ratesAsOf, type RateSet, type RateSetQuery } from '../../domain/rate-queries.js';
import { defineEndpoint } from '../endpoints/endpoint.js';
import { sourcesEndpoint } from '../endpoints/sources.js';
import { closing, code, CODE_LIST, dateParams, MESSAGES, placesOf, text } from '../endpoints/parameters.js';
import { code as codeText, isoDate } from '../openapi/response-schemas.js';
import { dropInResponses, OXR } from './dialects.js';
import { dayTimestamp, ratesByDay, ratesJson } from './json-numbers.js';

/** What every OXR answer opens with; ours say where the figures come from. */
export const OXR_PREAMBLE =
  `"disclaimer":"Reference rates of the central banks this service reads (GET ${sourcesEndpoint.path}), exact to 6 places; no warranty.",` +
  '"license":"Published by those banks under their own terms; served by this self-hosted currency-rates instance."';

/** OXR's key parameter: documented here, read by the key hook (drop-in-keys.ts). */
export const appIdParameter = z.string({ error: 'app_id must be given once' }).optional().describe('Your API key, as OXR takes it (or send Authorization: Bearer)');

const oxrQuery = z.object({
  app_id: appIdParameter,
  base: code(MESSAGES.base).optional().describe('Base currency (default USD, as OXR)'),
  symbols: text(CODE_LIST, MESSAGES.symbols).optional().describe('Comma-separated currencies to return (default: every one)'),
  ...closing,
});
type OxrQuery = z.output<typeof oxrQuery>;

const rateSetQueryOf = (query: Pick<OxrQuery, 'base' | 'symbols' | 'precision'>): RateSetQuery => ({
  base: query.base ?? 'USD',
  symbols: query.symbols?.split(','),
  places: placesOf(query.precision),
});

/** OXR's rate set: the base among the rates (1), `timestamp` the day's midnight UTC. */
const oxrRateSet = (set: RateSet) =>
  `{${OXR_PREAMBLE},"timestamp":${dayTimestamp(set.date)},"base":${JSON.stringify(set.base)},"rates":${ratesJson(set.rates)}}`;

const preamble = { disclaimer: z.string(), license: z.string() };
const rates = z.record(codeText, z.number().meta({ description: 'Units of the currency per one unit of the base', examples: [0.855871] }));

const OxrRateSet = z
  .strictObject({
    ...preamble,
    timestamp: z.int().describe('Midnight UTC of the day of the rates, in Unix seconds'),
    base: codeText,
    rates: rates.describe('Rates by code, alphabetical, the base included; JSON numbers written from the exact values'),
  })
  .meta({ id: 'OxrRateSet' });

const common = { tags: [OXR.tag], conditional: true };
const keyed = { validated: true, keyed: true };

export const oxrLatestEndpoint = defineEndpoint({
  path: '/api/latest.json',
  query: oxrQuery,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'oxrLatest',
    summary: 'Open Exchange Rates: latest rates',
    description: 'As OXR `latest.json`: the newest day with rates for the base and every symbol asked for. `app_id` or a Bearer key.',
    parameters: { base: { example: 'USD' }, symbols: { example: 'EUR,GBP' } },
    responses: dropInResponses(OXR, { body: OxrRateSet, description: 'The rate set' }, 'Nothing ingested yet', keyed),
  },
  body: ({ ratesOf, tracked }, { query }) => latestRates(ratesOf(query.source), tracked, rateSetQueryOf(query)),
  json: oxrRateSet,
});

export const oxrHistoricalEndpoint = defineEndpoint({
  path: '/api/historical/:date.json',
  params: dateParams,
  query: oxrQuery,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'oxrHistorical',
    summary: 'Open Exchange Rates: rates of a day',
    description: "As OXR `historical/{date}.json`; a day without rates (a weekend, a holiday) answers the nearest earlier day's, as its `timestamp` shows.",
    parameters: { date: { format: 'date', example: '2026-04-13' }, symbols: { example: 'EUR,GBP' } },
    responses: dropInResponses(OXR, { body: OxrRateSet, description: 'The rate set' }, 'No rates on that day or any day before it', keyed),
  },
  body: ({ ratesOf, tracked }, { params, query }) => ratesAsOf(ratesOf(query.source), tracked, params.date, rateSetQueryOf(query)),
  json: oxrRateSet,
});

const calendarDate = (message: string) => z.string({ error: message }).refine(isValidIsoDate, { error: message });
const isDate = (value: unknown): value is string => typeof value === 'string' && isValidIsoDate(value);

const timeSeriesQuery = z
  .object({
    app_id: appIdParameter,
    start: calendarDate(MESSAGES.start).describe('First day, YYYY-MM-DD'),
    end: calendarDate(MESSAGES.end).describe('Last day, YYYY-MM-DD'),
    base: code(MESSAGES.base).optional().describe('Base currency (default USD)'),
    symbols: text(CODE_LIST, MESSAGES.symbols).optional().describe('Comma-separated currencies to return'),
    ...closing,
  })
  .refine(({ start, end }) => !(isDate(start) && isDate(end) && end < start), { error: MESSAGES.order });

const OxrTimeSeries = z
  .strictObject({
    ...preamble,
    start_date: isoDate,
    end_date: isoDate,
    base: codeText,
    rates: z.record(isoDate, rates).describe('Rates by day, oldest first: each day with rates for the base'),
  })
  .meta({ id: 'OxrTimeSeries' });

export const oxrTimeSeriesEndpoint = defineEndpoint({
  path: '/api/time-series.json',
  query: timeSeriesQuery,
  cacheable: true,
  doc: {
    ...common,
    operationId: 'oxrTimeSeries',
    summary: 'Open Exchange Rates: rates over a range of days',
    description: 'As OXR `time-series.json`: every day from `start` to `end` with rates for the base, of any length, sent in pieces as the client reads it.',
    parameters: { start: { format: 'date', example: '2026-04-10' }, end: { format: 'date', example: '2026-04-13' }, symbols: { example: 'EUR' } },
    responses: dropInResponses(OXR, { body: OxrTimeSeries, description: 'The rate sets by day' }, 'No day of the range has rates for the base', keyed),
  },
  body: ({ ratesOf, tracked }, { query }) => ratesBetween(ratesOf(query.source), tracked, { start: query.start, end: query.end }, rateSetQueryOf(query)),
  written: { json: timeSeriesJson },
});

/** A time series as JSON text, day by day (DECISIONS §14): the whole history is megabytes. */
function* timeSeriesJson(range: RateRange): Iterable<string> {
  yield `{${OXR_PREAMBLE},"start_date":"${range.start_date}","end_date":"${range.end_date}","base":${JSON.stringify(range.base)},"rates":`;
  yield* ratesByDay(range);
  yield '}';
}
