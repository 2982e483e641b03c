import { z } from 'zod';
import { NUMERIC_STRING } from '../../domain/money.js';

/**
 * The bodies the API answers, as zod schemas: attached to the routes' `schema.response` and
 * turned into the OpenAPI document's components. They document; they never serialise (the
 * handlers send bytes they rendered themselves, see openapi/register-api-docs.ts).
 *
 * Each schema with an `id` becomes `#/components/schemas/<id>`.
 */

const code = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ description: 'Three-letter currency code, upper-case', examples: ['USD'] });

/** A decimal string with exactly 6 fractional digits, rounded half-up, never in exponent notation. */
const sixDecimals = (description: string, example: string) =>
  z
    .string()
    .regex(/^\d+\.\d{6}$/)
    .meta({ description, examples: [example] });

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ format: 'date', description: 'YYYY-MM-DD', examples: ['2026-04-13'] });

const amountEcho = z
  .string()
  .regex(NUMERIC_STRING)
  .meta({ description: 'The requested amount, exactly as sent', examples: ['100'] });

export const RateSet = z
  .strictObject({
    base: code.describe('The base currency'),
    date: isoDate.describe('The day of the rates'),
    rates: z
      .record(code, sixDecimals('Units of the currency per one unit of the base', '159.833961'))
      .describe('Rates by currency code, in alphabetical order; the base itself is 1.000000'),
  })
  .meta({
    id: 'RateSet',
    description: 'Rates of the tracked currencies against a base on one day',
    examples: [{ base: 'USD', date: '2026-04-13', rates: { GBP: '0.745104', JPY: '159.833961' } }],
  });

export const RateRange = z
  .strictObject({
    base: code.describe('The base currency'),
    start_date: isoDate.describe('The start asked for'),
    end_date: isoDate.describe('The end asked for; with an open end, the newest day in the answer'),
    rates: z
      .record(
        isoDate,
        z.record(code, sixDecimals('Units of the currency per one unit of the base', '1.168500')).describe('That day\'s rate set'),
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

const signedSixDecimals = (description: string, example: string) =>
  z
    .string()
    .regex(/^-?\d+\.\d{6}$/)
    .meta({ description, examples: [example] });

export const RateMove = z
  .strictObject({
    start_date: isoDate.describe('The first day of the range with a rate for the currency'),
    end_date: isoDate.describe('The last day of the range with a rate for the currency'),
    start_rate: sixDecimals('The rate on start_date', '1.168500'),
    end_rate: sixDecimals('The rate on end_date', '1.171100'),
    change: signedSixDecimals('end − start, from the exact rates, rounded once', '0.002600'),
    change_pct: signedSixDecimals('(end − start) / start × 100, from the exact rates, rounded once', '0.222507'),
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

export const Conversion = z
  .strictObject({
    from: code.describe('The currency held'),
    to: code.describe('The currency converted into'),
    amount: amountEcho,
    result: sixDecimals('amount × rate, computed exactly and rounded once', '15983.396097'),
    rate: sixDecimals('Units of `to` per one unit of `from`', '159.833961'),
    date: isoDate.describe('The day of the rates used'),
  })
  .meta({
    id: 'Conversion',
    description: 'One amount converted into one currency',
    examples: [{ from: 'USD', to: 'JPY', amount: '100', result: '15983.396097', rate: '159.833961', date: '2026-04-13' }],
  });

export const BulkConversionEntry = z
  .strictObject({
    to: code.describe('The target currency'),
    result: sixDecimals('amount × rate, computed exactly and rounded once', '336.194491'),
    rate: sixDecimals('Units of `to` per one unit of `from`', '1.342094'),
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

export const Source = z
  .strictObject({
    id: z.string().regex(/^[a-z]+$/).meta({ description: 'The id used in SOURCES and `ingest --source`', examples: ['nbp'] }),
    name: z.string().meta({ description: "The bank's name", examples: ['Narodowy Bank Polski'] }),
    base: code.describe('The currency the bank quotes against'),
    url: z.url().meta({ description: "The bank's page describing the feed", examples: ['https://api.nbp.pl/en.html'] }),
    codes: z.array(code).describe('Every currency stored from this source, alphabetical; the base itself is not listed'),
    first_day: isoDate.nullable().describe('The first stored day of this source; null before its first ingestion'),
    last_day: isoDate.nullable().describe('The last stored day of this source; null before its first ingestion'),
  })
  .meta({ id: 'Source' });

export const SourceList = z.array(Source).meta({
  id: 'SourceList',
  description: 'Each enabled rate source, in the priority order of SOURCES',
  examples: [
    [
      {
        id: 'ecb',
        name: 'European Central Bank',
        base: 'EUR',
        url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
        codes: ['AUD', 'BGN', 'USD'],
        first_day: '1999-01-04',
        last_day: '2026-04-13',
      },
    ],
  ],
});

const isoSecond = (description: string, example: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    .meta({ format: 'date-time', description, examples: [example] });

export const Usage = z
  .strictObject({
    limit: z.int().min(1).describe("The key's quota: requests per period (X-RateLimit-Limit)"),
    used: z.int().min(1).describe('Requests counted in the current period, this one included'),
    remaining: z.int().min(0).describe('limit − used (X-RateLimit-Remaining)'),
    period_start: isoSecond("When the period began (the key's first request in it), to the second, rounded down", '2026-11-02T08:14:05Z'),
    period_end: isoSecond('When the period ends (X-RateLimit-Reset), to the second, rounded up', '2026-12-02T08:14:06Z'),
  })
  .meta({
    id: 'Usage',
    description: "The calling key's quota and its use in the current period, this request included",
    examples: [{ limit: 1000, used: 42, remaining: 958, period_start: '2026-11-02T08:14:05Z', period_end: '2026-12-02T08:14:06Z' }],
  });

export const Health = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' });
export const Ready = z.strictObject({ status: z.literal('ready') }).meta({ id: 'Ready' });

const statusCode = (status: number) => z.literal(status).meta({ type: 'integer' });

/** The spec's error shape with a single-string message. */
const stringError = (id: string, status: number, error: string, description: string, examples: string[]) =>
  z
    .strictObject({
      statusCode: statusCode(status),
      message: z.string().meta({ examples }),
      error: z.literal(error),
    })
    .meta({ id, description, examples: examples.map((message) => ({ statusCode: status, message, error })) });

export const BadRequest = z
  .strictObject({
    statusCode: statusCode(400),
    message: z
      .xor([
        z
          .array(z.string())
          .min(1)
          .describe('Every failed format rule, one string each, in the order of the parameters'),
        z.string().describe('A non-positive amount, or a currency the service does not track'),
      ])
      .meta({ examples: [['from must be a 3-letter currency code', 'amount must be a numeric string'], 'Unknown currency: XYZ'] }),
    error: z.literal('Bad Request'),
  })
  .meta({
    id: 'BadRequest',
    description: 'Validation failures carry an array; the later checks (positive amount, tracked currency) a string',
    examples: [
      { statusCode: 400, message: ['from must be a 3-letter currency code', 'amount must be a numeric string'], error: 'Bad Request' },
      { statusCode: 400, message: 'amount must be a positive number', error: 'Bad Request' },
      { statusCode: 400, message: 'Unknown currency: XYZ', error: 'Bad Request' },
    ],
  });

export const Unauthorized = stringError('Unauthorized', 401, 'Unauthorized', 'No usable API key', [
  'Missing or malformed Authorization header',
  'Invalid API key',
]);

export const NotFound = stringError('NotFound', 404, 'Not Found', 'No data for the request, or an unknown path', [
  'No exchange rate data has been ingested yet',
  'No exchange rate data available for 2026-04-11',
  'No exchange rate data available between 2026-04-11 and 2026-04-12',
]);

export const MethodNotAllowed = stringError('MethodNotAllowed', 405, 'Method Not Allowed', 'A method other than GET, HEAD or OPTIONS', [
  'Cannot POST /api/v1/convert',
]);

/** SPEC §7: the 429 body has no `error` field. */
export const QuotaExceeded = z
  .strictObject({
    statusCode: statusCode(429),
    message: z.string().meta({ examples: ['Rate limit exceeded: 1000 requests per 30-day period'] }),
  })
  .meta({
    id: 'QuotaExceeded',
    description: "The key's quota for the current period is used up (no `error` field)",
    examples: [{ statusCode: 429, message: 'Rate limit exceeded: 1000 requests per 30-day period' }],
  });

export const ServiceUnavailable = stringError('ServiceUnavailable', 503, 'Service Unavailable', 'A storage backend cannot be reached', [
  'Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.',
]);
