import { ratesOn } from '../../domain/rate-queries.js';
import { apiResponses } from '../openapi/route-docs.js';
import { defineEndpoint } from './endpoint.js';
import { RateSet } from './latest-rates.js';
import { dateParams, rateSetOf, rateSetQuery } from './parameters.js';



/** The rate set of one day exactly. */
export const ratesOnDateEndpoint = defineEndpoint({
  path: '/api/v1/rates/:date',
  params: dateParams,
  query: rateSetQuery,
  cacheable: true,
  doc: {
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
  body: ({ ratesOf, tracked }, { params, query }) => ratesOn(ratesOf(query.source), tracked, params.date, rateSetOf(query)),
});
