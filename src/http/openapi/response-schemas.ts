import { z } from 'zod';
import { NUMERIC_STRING } from '../../domain/money.js';

/**
 * The pieces of the API's answers as zod schemas, shared by the endpoints (each holds its own
 * 200 body: src/http/endpoints/), and the bodies every route shares: the errors and the probes.
 * Attached to the routes' `schema.response` and turned into the OpenAPI document's components;
 * they document, they never serialise (the handlers send bytes they rendered themselves).
 *
 * Each schema with an `id` becomes `#/components/schemas/<id>`.
 */

export const code = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ description: 'Three-letter currency code, upper-case', examples: ['USD'] });

/**
 * A decimal string rounded half-up, never in exponent notation: 6 fractional digits, or as many
 * as `precision` asks (0 to 12; 0: no point), DECISIONS §15.
 */
export const SHOWN_DECIMAL = /^\d+(\.\d{1,12})?$/;
export const shownDecimals = (description: string, example: string) =>
  z
    .string()
    .regex(SHOWN_DECIMAL)
    .meta({ description, examples: [example] });

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ format: 'date', description: 'YYYY-MM-DD', examples: ['2026-04-13'] });

export const amountEcho = z
  .string()
  .regex(NUMERIC_STRING)
  .meta({ description: 'The requested amount, exactly as sent', examples: ['100'] });

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

/** What a 405 says, for one URL of the API (a URL, not a route: each route's path is written once, in its endpoint). */
export const METHOD_NOT_ALLOWED_EXAMPLE = 'Cannot POST /api/v1/rates/2026-04-13';

export const MethodNotAllowed = stringError('MethodNotAllowed', 405, 'Method Not Allowed', 'A method other than GET, HEAD or OPTIONS', [METHOD_NOT_ALLOWED_EXAMPLE]);

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
