import { z } from 'zod';
import { ratesBetween, type RateRange as RateRangeBody } from '../../domain/range-queries.js';
import { apiResponses, NO_DATA_IN_RANGE, rangeParameters } from '../openapi/route-docs.js';
import { code, isoDate, shownDecimals } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';
import { dateRangeOf, rangeParams, rangeQuery, rateSetOf } from './parameters.js';

export const RateRange = z
  .strictObject({
    base: code.describe('The base currency'),
    start_date: isoDate.describe('The start asked for'),
    end_date: isoDate.describe('The end asked for; with an open end, the newest day in the answer'),
    rates: z
      .record(
        isoDate,
        z.record(code, shownDecimals('Units of the currency per one unit of the base', '1.168500')).describe('That day\'s rate set'),
      )
      .describe('Rate sets by day, oldest first; only days on which the base has a rate'),
  })
  .meta({
    id: 'RateRange',
    description: 'The rate sets of every day of a range with rates, as /rates/{date} gives each',
    examples: [
      {
        base: 'EUR',
        start_date: '2026-04-09',
        end_date: '2026-04-10',
        rates: { '2026-04-09': { GBP: '0.870530', USD: '1.168500' }, '2026-04-10': { GBP: '0.871050', USD: '1.171100' } },
      },
    ],
  });

/** The rate sets of a range of days, as JSON, CSV or NDJSON, written day by day (DECISIONS §8, §14). */
export const rateRangeEndpoint = defineEndpoint({
  path: '/api/v1/rates/:start..:end',
  params: rangeParams,
  query: rangeQuery,
  cacheable: true,
  doc: {
    operationId: 'getRatesBetween',
    summary: 'Rates over a range of days',
    description:
      'The rate set of every day from `start` to `end` (both included) on which the base has a rate, oldest first; ' +
      'each as `/rates/{date}` gives it, a symbol without a rate that day left out of that day. An empty `end` ' +
      '(`2020-01-01..`) reaches the newest day. Any length, the whole history included, counts as one request, ' +
      'and is sent in pieces as the client reads it. ' +
      'With `Accept: text/csv` or `format=csv`: a header `date,CODE,…` (the codes of the answer, alphabetical) and one row ' +
      'per day, an empty cell where a day has no rate. With `Accept: application/x-ndjson` or `format=ndjson`: one line ' +
      'per day, `{"date":D,"base":B,"rates":{…}}`. `format` wins over `Accept`; errors stay JSON.',
    tags: ['Rates'],
    conditional: true,
    parameters: rangeParameters('2026-01-02', '2026-01-09'),
    responses: apiResponses({ body: RateRange, description: 'The rate sets by day' }, NO_DATA_IN_RANGE, true),
  },
  body: ({ ratesOf, tracked }, { params, query }) => ratesBetween(ratesOf(query.source), tracked, dateRangeOf(params), rateSetOf(query)),
  written: { json: rateRangeJson, csv: rateRangeCsv, ndjson: rateRangeNdjson },
  formatOf: (query) => query.format,
});

/**
 * A range as JSON text, day by day: the same bytes JSON.stringify gives for
 * `{base, start_date, end_date, rates: {day: {code: rate}}}`, without building that object.
 */
export function* rateRangeJson(range: RateRangeBody): Iterable<string> {
  const { base, start_date, end_date } = range;
  yield `${JSON.stringify({ base, start_date, end_date }).slice(0, -1)},"rates":{`;
  let separator = '';
  for (const [date, rates] of range.days()) {
    yield `${separator}${JSON.stringify(date)}:${JSON.stringify(rates)}`;
    separator = ',';
  }
  yield '}}';
}

/**
 * A range as CSV for spreadsheets (RFC 4180, CRLF line ends): a `date` column, then one column
 * per currency of the answer (alphabetical), one row per day, an empty cell where a day has no
 * rate. Codes, dates and rates hold no comma or quote, so no field needs quoting.
 */
export function* rateRangeCsv(range: RateRangeBody): Iterable<string> {
  yield ['date', ...range.codes].join(',') + '\r\n';
  for (const [date, rates] of range.days()) yield [date, ...range.codes.map((code) => rates[code] ?? '')].join(',') + '\r\n';
}

/** A range as NDJSON (DECISIONS §14): one line per day, `{"date":D,"base":B,"rates":{…}}`, each ended by `\n`. */
export function* rateRangeNdjson(range: RateRangeBody): Iterable<string> {
  for (const [date, rates] of range.days()) yield `${JSON.stringify({ date, base: range.base, rates })}\n`;
}
