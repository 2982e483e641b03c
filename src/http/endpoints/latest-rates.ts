import { z } from 'zod';
import { latestRates } from '../../domain/rate-queries.js';
import { apiResponses, NO_DATA } from '../openapi/route-docs.js';
import { code, isoDate, shownDecimals } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';
import { rateSetOf, rateSetQuery } from './parameters.js';

export const RateSet = z
  .strictObject({
    base: code.describe('The base currency'),
    date: isoDate.describe('The day of the rates'),
    rates: z
      .record(code, shownDecimals('Units of the currency per one unit of the base', '159.833961'))
      .describe('Rates by currency code, in alphabetical order; the base itself is 1.000000'),
  })
  .meta({
    id: 'RateSet',
    description: 'Rates of the tracked currencies against a base on one day',
    examples: [{ base: 'USD', date: '2026-04-13', rates: { GBP: '0.745104', JPY: '159.833961' } }],
  });

/** The newest rate set. */
export const latestRatesEndpoint = defineEndpoint({
  path: '/api/v1/rates/latest',
  query: rateSetQuery,
  cacheable: true,
  doc: {
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
  body: ({ ratesOf, tracked }, { query }) => latestRates(ratesOf(query.source), tracked, rateSetOf(query)),
});
