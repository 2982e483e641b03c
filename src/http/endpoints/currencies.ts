import { z } from 'zod';
import { apiResponses } from '../openapi/route-docs.js';
import { code } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';

export const Currency = z
  .strictObject({
    code,
    name: z.string().meta({ description: 'English display name (Unicode CLDR)', examples: ['US Dollar'] }),
    symbol: z.string().meta({ description: 'Narrow symbol (Unicode CLDR)', examples: ['$'] }),
  })
  .meta({ id: 'Currency' });

export const CurrencyList = z
  .array(Currency)
  .meta({ id: 'CurrencyList', description: 'Every served currency, sorted by code' });

/** The served currencies. */
export const currenciesEndpoint = defineEndpoint({
  path: '/api/v1/currencies',
  cacheable: true,
  doc: {
    operationId: 'listCurrencies',
    summary: 'Supported currencies',
    description: 'Every served currency, sorted by code, with its CLDR English name and narrow symbol. Works before any ingestion.',
    tags: ['Currencies'],
    conditional: true,
    responses: apiResponses({ body: CurrencyList, description: 'The currencies' }, undefined, false),
  },
  body: ({ tracked }) => tracked.list,
});
