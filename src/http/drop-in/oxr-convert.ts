import { z } from 'zod';
import { NUMERIC_STRING, positiveAmount } from '../../domain/money.js';
import { conversion, conversionPlan, type Conversion } from '../../domain/rate-queries.js';
import { defineEndpoint } from '../endpoints/endpoint.js';
import { closing, code, MESSAGES, placesOf, text, withinAmountLimits } from '../endpoints/parameters.js';
import { code as codeText } from '../openapi/response-schemas.js';
import { dropInResponses, OXR } from './dialects.js';
import { dayTimestamp, jsonNumber } from './json-numbers.js';
import { appIdParameter, OXR_PREAMBLE } from './oxr-rates.js';

const VALUE = 'value must be a numeric string';

const convertParams = z.object({
  value: text(NUMERIC_STRING, VALUE).refine(withinAmountLimits, { error: VALUE }).describe('The amount to convert, a positive decimal number'),
  from: code(MESSAGES.from).describe('The currency held'),
  to: code(MESSAGES.to).describe('The currency to convert into'),
});

const OxrConversion = z
  .strictObject({
    disclaimer: z.string(),
    license: z.string(),
    request: z.strictObject({ query: z.string(), amount: z.number(), from: codeText, to: codeText }),
    meta: z.strictObject({ timestamp: z.int().describe("Midnight UTC of the rates' day, in Unix seconds"), rate: z.number() }),
    response: z.number().describe('`value` × rate, rounded once'),
  })
  .meta({
    id: 'OxrConversion',
    examples: [
      {
        disclaimer: '…',
        license: '…',
        request: { query: '/convert/100/USD/JPY', amount: 100, from: 'USD', to: 'JPY' },
        meta: { timestamp: 1776038400, rate: 159.833961 },
        response: 15983.396097,
      },
    ],
  });

export const oxrConvertEndpoint = defineEndpoint({
  path: '/api/convert/:value/:from/:to',
  params: convertParams,
  query: z.object({ app_id: appIdParameter, ...closing }),
  cacheable: true,
  doc: {
    tags: [OXR.tag],
    conditional: true,
    operationId: 'oxrConvert',
    summary: 'Open Exchange Rates: convert an amount',
    description: 'As OXR `convert/{value}/{from}/{to}`: `value` converted at the latest rates, exact and rounded once.',
    parameters: { value: { example: '100' }, from: { example: 'USD' }, to: { example: 'JPY' } },
    responses: dropInResponses(OXR, { body: OxrConversion, description: 'The conversion' }, 'Nothing ingested yet', { validated: true, keyed: true }),
  },
  body: ({ ratesOf, tracked }, { params, query }): Conversion => {
    const snapshot = ratesOf(query.source);
    const value = positiveAmount(params.value);
    return conversion(conversionPlan(snapshot, tracked, params.from, params.to), params.value, value, placesOf(query.precision));
  },
  json: ({ from, to, amount, result, rate, date }) =>
    `{${OXR_PREAMBLE},"request":{"query":"/convert/${amount}/${from}/${to}","amount":${jsonNumber(amount)},"from":"${from}","to":"${to}"},` +
    `"meta":{"timestamp":${dayTimestamp(date)},"rate":${jsonNumber(rate)}},"response":${jsonNumber(result)}}`,
});
