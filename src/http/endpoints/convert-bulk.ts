import { z } from 'zod';
import { positiveAmount } from '../../domain/money.js';
import { bulkConversion, conversionPlan } from '../../domain/rate-queries.js';
import { apiResponses, NO_DATA, NO_DATA_ON_DATE } from '../openapi/route-docs.js';
import { amountEcho, code, isoDate, shownDecimals } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';
import { bulkQuery, placesOf } from './parameters.js';

export const BulkConversionEntry = z
  .strictObject({
    to: code.describe('The target currency'),
    result: shownDecimals('amount × rate, computed exactly and rounded once', '336.194491'),
    rate: shownDecimals('Units of `to` per one unit of `from`', '1.342094'),
  })
  .meta({ id: 'BulkConversionEntry' });

export const BulkConversion = z
  .strictObject({
    from: code.describe('The currency held'),
    amount: amountEcho,
    date: isoDate.describe('The day of the rates used'),
    conversions: z
      .array(BulkConversionEntry)
      .min(1)
      .max(25)
      .describe('One entry per distinct target, in the order requested'),
  })
  .meta({
    id: 'BulkConversion',
    description: 'One amount converted into several currencies',
    examples: [
      {
        from: 'GBP',
        amount: '250.50',
        date: '2026-04-13',
        conversions: [
          { to: 'USD', result: '336.194491', rate: '1.342094' },
          { to: 'JPY', result: '53735.297158', rate: '214.512164' },
        ],
      },
    ],
  });

/** One amount into up to 25 currencies. */
export const convertBulkEndpoint = defineEndpoint({
  path: '/api/v1/convert/bulk',
  query: bulkQuery,
  cacheable: false,
  doc: {
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
  // DECISIONS §1: the amount's positivity is checked after the formats and before the currencies;
  // its URL carries the amount and rarely repeats, so the answer is not kept.
  body: ({ ratesOf, tracked }, { query: { from, to, amount, date, source, precision } }) => {
    const value = positiveAmount(amount);
    return bulkConversion(conversionPlan(ratesOf(source), tracked, from, to, date), amount, value, placesOf(precision));
  },
});
