import { z } from 'zod';
import type { Currency } from '../../domain/currencies.js';
import type { RatesSnapshot } from '../../domain/snapshot.js';
import type { SourceDescription } from '../../domain/source-values.js';
import { defineEndpoint } from '../endpoints/endpoint.js';
import { HttpError } from '../errors.js';
import { code as codeText, isoDate } from '../openapi/response-schemas.js';
import { dropInResponses, FRANKFURTER_V2 } from './dialects.js';

/** The first and last day a currency has a rate, or nulls. */
function spanOf(snapshot: RatesSnapshot, currency: string): { start_date: string | null; end_date: string | null } {
  const days = snapshot.firstAndLastWith([currency], '0000-01-01', undefined);
  return { start_date: days?.[0].date ?? null, end_date: days?.[1].date ?? null };
}

/** Frankfurter keys a provider in capitals; ours are the source ids (`ECB` is `ecb`). */
const providerKey = (source: SourceDescription) => source.id.toUpperCase();

/** The enabled sources quoting a currency (its base included), in priority order. */
const providersOf = (snapshot: RatesSnapshot, sources: readonly SourceDescription[], currency: string) =>
  sources.filter((source) => source.base === currency || snapshot.spanOf(source.id)?.codes.includes(currency)).map(providerKey);

/** ISO 4217 numeric codes are not in Node's CLDR data, and the service keeps no table of its own (DECISIONS §5). */
const currencyEntry = (snapshot: RatesSnapshot, { code, name, symbol }: Currency) => ({
  iso_code: code,
  iso_numeric: null,
  name,
  symbol,
  ...spanOf(snapshot, code),
});

const nullableDate = isoDate.nullable();
const CurrencyEntry = z
  .strictObject({
    iso_code: codeText,
    iso_numeric: z.null().describe('Always null: ISO numeric codes are not part of the CLDR data the names come from'),
    name: z.string().describe('English name (CLDR)'),
    symbol: z.string().describe('Narrow symbol (CLDR)'),
    start_date: nullableDate.describe('First day with a rate'),
    end_date: nullableDate.describe('Last day with a rate'),
  })
  .meta({ id: 'FrankfurterV2Currency' });

const common = { tags: [FRANKFURTER_V2.tag], conditional: true };
const keyedOnly = { validated: false, keyed: true };

export const v2CurrenciesEndpoint = defineEndpoint({
  path: '/v2/currencies',
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV2Currencies',
    summary: 'Frankfurter v2: currencies',
    description: 'Every served currency, sorted by code, with its first and last day with a rate.',
    responses: dropInResponses(FRANKFURTER_V2, { body: z.array(CurrencyEntry), description: 'The currencies' }, undefined, keyedOnly),
  },
  body: ({ snapshot, tracked }) => tracked.list.map((currency) => currencyEntry(snapshot, currency)),
});

const CurrencyDetail = z
  .strictObject({
    iso_code: codeText,
    iso_numeric: z.null(),
    name: z.string(),
    symbol: z.string(),
    start_date: nullableDate,
    end_date: nullableDate,
    providers: z.array(z.string()).describe('The enabled sources quoting it, in priority order (`ECB` is the source `ecb`)'),
  })
  .meta({ id: 'FrankfurterV2CurrencyDetail' });

export const v2CurrencyEndpoint = defineEndpoint({
  path: '/v2/currency/:code',
  params: z.object({ code: z.string().describe('A currency code, any case').meta({ example: 'USD' }) }),
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV2Currency',
    summary: 'Frankfurter v2: one currency',
    description: 'One served currency and the sources quoting it; a code not served is a 404.',
    responses: dropInResponses(FRANKFURTER_V2, { body: CurrencyDetail, description: 'The currency' }, 'Not a served currency (`Unknown currency: XYZ`)', keyedOnly),
  },
  body: ({ snapshot, tracked, sources }, { params }) => {
    const wanted = params.code.toUpperCase();
    const currency = tracked.list.find(({ code }) => code === wanted);
    // Frankfurter answers an unknown code as a missing resource: 404, not 422.
    if (currency === undefined) throw new HttpError(404, `Unknown currency: ${wanted.slice(0, 16)}`);
    return { ...currencyEntry(snapshot, currency), providers: providersOf(snapshot, sources, wanted) };
  },
});

const Provider = z
  .strictObject({
    key: z.string().describe('The source id in capitals (`ECB` is `ecb`, as SOURCES names it)'),
    name: z.string(),
    country_code: z.string().nullable(),
    rate_type: z.string(),
    pivot_currency: codeText.describe('The currency the source quotes against'),
    data_url: z.string(),
    terms_url: z.null().describe('Always null: the service keeps no terms URL per source'),
    start_date: nullableDate.describe('First stored day; null before its first ingestion'),
    end_date: nullableDate.describe('Last stored day; null before its first ingestion'),
    publish_cadence: z.string(),
    currencies: z.array(codeText).describe('Codes stored from it, alphabetical'),
  })
  .meta({ id: 'FrankfurterV2Provider' });

export const v2ProvidersEndpoint = defineEndpoint({
  path: '/v2/providers',
  cacheable: true,
  doc: {
    ...common,
    operationId: 'frankfurterV2Providers',
    summary: 'Frankfurter v2: providers (our sources)',
    description: 'Each enabled source (SOURCES), in priority order, in the shape of a Frankfurter provider.',
    responses: dropInResponses(FRANKFURTER_V2, { body: z.array(Provider), description: 'The providers' }, undefined, keyedOnly),
  },
  body: ({ snapshot, sources }) =>
    sources.map((source) => {
      const span = snapshot.spanOf(source.id);
      return {
        key: providerKey(source),
        name: source.name,
        country_code: source.country,
        rate_type: source.rateType,
        pivot_currency: source.base,
        data_url: source.url,
        terms_url: null,
        start_date: span?.firstDay ?? null,
        end_date: span?.lastDay ?? null,
        publish_cadence: source.cadence,
        currencies: span?.codes ?? [],
      };
    }),
});
