import { z } from 'zod';
import { positiveAmount } from '../../domain/money.js';
import { conversion, conversionPlan } from '../../domain/rate-queries.js';
import { apiResponses, NO_DATA, NO_DATA_ON_DATE } from '../openapi/route-docs.js';
import { amountEcho, code, isoDate, shownDecimals } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';
import { convertQuery, placesOf } from './parameters.js';

export const Conversion = z
  .strictObject({
    from: code.describe('The currency held'),
    to: code.describe('The currency converted into'),
    amount: amountEcho,
    result: shownDecimals('amount × rate, computed exactly and rounded once', '15983.396097'),
    rate: shownDecimals('Units of `to` per one unit of `from`', '159.833961'),
    date: isoDate.describe('The day of the rates used'),
  })
  .meta({
    id: 'Conversion',
    description: 'One amount converted into one currency',
    examples: [{ from: 'USD', to: 'JPY', amount: '100', result: '15983.396097', rate: '159.833961', date: '2026-04-13' }],
  });

/** One amount into one currency. */
export const convertEndpoint = defineEndpoint({
  path: '/api/v1/convert',
  query: convertQuery,
  cacheable: false,
  doc: {
    operationId: 'convert',
    summary: 'Convert an amount',
    description: '`result` is amount × rate(to) / rate(from), computed in exact decimals and rounded once, half-up, to 6 decimals (or `precision` of them).',
    tags: ['Conversion'],
    conditional: true,
    parameters: { from: { example: 'USD' }, to: { example: 'JPY' }, amount: { example: '100' }, date: { format: 'date', example: '2025-12-31' } },
    responses: apiResponses({ body: Conversion, description: 'The conversion' }, NO_DATA + NO_DATA_ON_DATE, true),
  },
  // DECISIONS §1: the amount's positivity is checked after the formats and before the currencies;
  // its URL carries the amount and rarely repeats, so the answer is not kept.
  body: ({ ratesOf, tracked }, { query: { from, to, amount, date, source, precision } }) => {
    const value = positiveAmount(amount);
    return conversion(conversionPlan(ratesOf(source), tracked, from, to, date), amount, value, placesOf(precision));
  },
});
