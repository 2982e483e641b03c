import type { FastifySchema } from 'fastify';
import { z, type ZodType } from 'zod';
import { MEDIA_TYPES, type Format } from '../formats.js';
import { BadRequest, NotFound, QuotaExceeded, ServiceUnavailable, Unauthorized } from './response-schemas.js';

/** A response header as the OpenAPI document shows it (a JSON schema with a description). */
type HeaderDoc = { description: string } & Record<string, unknown>;

export interface ResponseDoc {
  description: string;
  /** The JSON body; none for 304. */
  body?: ZodType;
  headers: Record<string, HeaderDoc>;
}

export interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  /** `[]` for the routes that need no key; the document's default (the bearer key) otherwise. */
  security?: [];
  /** Whether the route honours If-None-Match (the API routes do). */
  conditional: boolean;
  /**
   * What the document adds to a parameter's schema where a zod refinement says it in code only
   * (a calendar date, the bulk list), and examples that Swagger UI's "Try it out" fills in.
   */
  parameters?: Record<string, Record<string, unknown>>;
  responses: Record<number, ResponseDoc>;
}

export const REQUEST_ID: Record<string, HeaderDoc> = {
  'X-Request-Id': {
    description: 'The request id: the X-Request-Id sent (up to 128 of A-Z a-z 0-9 _ . : -), else a generated one; logs carry it',
    type: 'string',
  },
};
export const RATE_LIMIT: Record<string, HeaderDoc> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per quota period', type: 'integer', minimum: 1 },
  'X-RateLimit-Remaining': { description: 'Requests left in the period after this one', type: 'integer', minimum: 0 },
  'X-RateLimit-Reset': { description: 'When the period ends, in Unix seconds', type: 'integer' },
};
export const RETRY_AFTER: Record<string, HeaderDoc> = {
  'Retry-After': { description: 'Seconds to wait before retrying', type: 'integer', minimum: 1 },
};
export const ETAG: Record<string, HeaderDoc> = {
  ETag: { description: 'Strong validator of the body: send it in If-None-Match to get a 304 while it holds', type: 'string' },
};
export const WWW_AUTHENTICATE: Record<string, HeaderDoc> = {
  'WWW-Authenticate': { description: 'The scheme to use', type: 'string', const: 'Bearer' },
};

/** The answers every route behind the key shares, as SPEC §5, §7 and DECISIONS §1, §4 describe them. */
export function apiResponses(ok: { body: ZodType; description: string }, notFound: string | undefined, validated: boolean): Record<number, ResponseDoc> {
  const responses: Record<number, ResponseDoc> = {
    200: { ...ok, headers: { ...ETAG, ...RATE_LIMIT, ...REQUEST_ID } },
    304: {
      description: 'Not Modified: If-None-Match names the current ETag (the request still counts)',
      headers: { ...ETAG, ...RATE_LIMIT, ...REQUEST_ID },
    },
  };
  if (validated) {
    responses[400] = {
      description:
        'A parameter breaks a format rule (`message`: an array with every failed rule, in parameter order); ' +
        'or, once every format holds, the amount is not positive or a currency is not tracked (`message`: one string)',
      body: BadRequest,
      headers: { ...RATE_LIMIT, ...REQUEST_ID },
    };
  }
  responses[401] = {
    description: 'The Authorization header is missing or malformed, or the key is invalid or revoked (not counted)',
    body: Unauthorized,
    headers: { ...WWW_AUTHENTICATE, ...REQUEST_ID },
  };
  if (notFound !== undefined) responses[404] = { description: notFound, body: NotFound, headers: { ...RATE_LIMIT, ...REQUEST_ID } };
  responses[429] = {
    description: "The key's quota for the current period is used up (not counted)",
    body: QuotaExceeded,
    headers: { ...RATE_LIMIT, ...RETRY_AFTER, ...REQUEST_ID },
  };
  responses[503] = {
    description: 'A storage backend cannot be reached: the request was neither answered nor counted; retry shortly',
    body: ServiceUnavailable,
    headers: { ...RETRY_AFTER, ...REQUEST_ID },
  };
  return responses;
}

export const NO_DATA = 'No data: nothing has been ingested yet, or no day has a rate for every currency asked for';
export const NO_DATA_ON_DATE = '; with `date`, that day has no rate for one of them (`No exchange rate data available for YYYY-MM-DD`)';
export const NO_DATA_IN_RANGE =
  'No day of the range has a rate for the base (`No exchange rate data available between START and END`, ' +
  'or `… available from START` with an open end)';

/** The parameters of a `{start}..{end}` route, with the examples "Try it out" fills in. */
export const rangeParameters = (start: string, end: string) => ({
  start: { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: start },
  end: { pattern: '^(\\d{4}-\\d{2}-\\d{2})?$', example: end },
  base: { example: 'EUR' },
  symbols: { example: 'USD,GBP' },
});

/** The request headers the document lists for a route (as a JSON schema of the headers object). */
export function requestHeadersDoc(doc: RouteDoc): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    'X-Request-Id': { type: 'string', maxLength: 128, pattern: '^[\\w.:-]+$', description: 'Your id for this request, echoed back and logged' },
  };
  if (doc.conditional) {
    properties['If-None-Match'] = { type: 'string', description: 'An ETag from an earlier answer: 304 while the body is unchanged' };
  }
  return { type: 'object', properties };
}

/** The 200 bodies besides JSON, as the document shows them. */
const OTHER_BODIES: Record<Exclude<Format, 'json'>, ZodType> = {
  csv: z.string().describe('`date,CODE,…` then one row per day (RFC 4180, CRLF line ends)'),
  ndjson: z.string().describe('One line per day, oldest first: `{"date":D,"base":B,"rates":{…}}`, each ended by `\\n`'),
};

/** Fastify `schema.response`: the zod bodies by status (304 has none); the 200 in each of `formats`. */
function responseSchemas(doc: RouteDoc, formats: readonly Format[]): Record<number, unknown> {
  const response: Record<number, unknown> = {};
  for (const [status, { description, body }] of Object.entries(doc.responses)) {
    const content: Record<string, { schema: ZodType }> = body === undefined ? {} : { 'application/json': { schema: body } };
    if (status === '200') for (const format of formats) if (format !== 'json') content[MEDIA_TYPES[format]] = { schema: OTHER_BODIES[format] };
    response[Number(status)] = body === undefined ? z.undefined().describe(description) : { description, content };
  }
  return response;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's documentation, for what the OpenAPI transform adds (register-api-docs.ts). */
    doc?: RouteDoc;
  }
}

/**
 * A GET route's documentation as Fastify route options: its `schema` (summary, tags, response
 * bodies, beside the schemas of its input) and the doc itself in `config` for the OpenAPI
 * transform. `formats`: what the 200 is given as, by Accept or `format=` (JSON first).
 */
export function documented(doc: RouteDoc, input: Pick<FastifySchema, 'params' | 'querystring'> = {}, formats: readonly Format[] = ['json']) {
  const schema: FastifySchema = {
    ...input,
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags: doc.tags,
    ...(doc.security ? { security: doc.security } : {}),
    response: responseSchemas(doc, formats),
  };
  return { schema, config: { doc } };
}
