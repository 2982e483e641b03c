import { z } from 'zod';
import { fluctuation } from '../../domain/range-queries.js';
import { apiResponses, NO_DATA_IN_RANGE, rangeParameters } from '../openapi/route-docs.js';
import { code, isoDate, shownDecimals } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';
import { dateRangeOf, rangeParams, rateSetOf, rateSetQuery } from './parameters.js';


const signedShownDecimals = (description: string, example: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d{1,12})?$/)
    .meta({ description, examples: [example] });

export const RateMove = z
  .strictObject({
    start_date: isoDate.describe('The first day of the range with a rate for the currency'),
    end_date: isoDate.describe('The last day of the range with a rate for the currency'),
    start_rate: shownDecimals('The rate on start_date', '1.168500'),
    end_rate: shownDecimals('The rate on end_date', '1.171100'),
    change: signedShownDecimals('end − start, from the exact rates, rounded once', '0.002600'),
    change_pct: signedShownDecimals('(end − start) / start × 100, from the exact rates, rounded once', '0.222507'),
  })
  .meta({ id: 'RateMove' });

export const Fluctuation = z
  .strictObject({
    base: code.describe('The base currency'),
    start_date: isoDate.describe('The start asked for'),
    end_date: isoDate.describe('The end asked for; with an open end, the newest day with rates'),
    rates: z.record(code, RateMove).describe('By currency code, in alphabetical order'),
  })
  .meta({ id: 'Fluctuation', description: 'How each currency moved over a range' });

/** How each rate moved over a range. */
export const fluctuationEndpoint = defineEndpoint({
  path: '/api/v1/fluctuation/:start..:end',
  params: rangeParams,
  query: rateSetQuery,
  cacheable: true,
  doc: {
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
  body: ({ ratesOf, tracked }, { params, query }) => fluctuation(ratesOf(query.source), tracked, dateRangeOf(params), rateSetOf(query)),
});
