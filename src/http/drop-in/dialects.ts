import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import type { ErrorShape, HttpError } from '../errors.js';
import { ETAG, RATE_LIMIT, REQUEST_ID, RETRY_AFTER, WWW_AUTHENTICATE, type ResponseDoc } from '../openapi/route-docs.js';

/**
 * One peer's way of answering (DECISIONS §16): its OpenAPI tag, the status it gives a request it
 * cannot read (Frankfurter 422, OXR 400), and its error body, which carries our wording.
 */
export interface Dialect {
  readonly tag: string;
  readonly invalidStatus: number;
  readonly errorBody: ZodType;
  readonly shape: ErrorShape;
}

/** Our message as one string: a validation 400's several rules joined, as HttpError joins them. */
const wording = (error: HttpError): string => error.message;
/** The status the peer gives: a 400 of ours is the peer's status for a request it cannot read. */
const statusIn = (dialect: { invalidStatus: number }, error: HttpError) => (error.statusCode === 400 ? dialect.invalidStatus : error.statusCode);

const V1_ERROR = z
  .strictObject({ message: z.string() })
  .meta({ id: 'FrankfurterV1Error', description: "Frankfurter v1's error body, with this service's wording", examples: [{ message: 'Unknown currency: XYZ' }] });

export const FRANKFURTER_V1: Dialect = {
  tag: 'Frankfurter v1',
  invalidStatus: 422,
  errorBody: V1_ERROR,
  shape(error) {
    const status = statusIn(FRANKFURTER_V1, error);
    return { status, body: JSON.stringify({ message: wording(error) }) };
  },
};

const V2_ERROR = z
  .strictObject({ status: z.int(), message: z.string() })
  .meta({ id: 'FrankfurterV2Error', description: "Frankfurter v2's error body, with this service's wording", examples: [{ status: 404, message: 'No exchange rate data available for 1998-01-02' }] });

export const FRANKFURTER_V2: Dialect = {
  tag: 'Frankfurter v2',
  invalidStatus: 422,
  errorBody: V2_ERROR,
  shape(error) {
    const status = statusIn(FRANKFURTER_V2, error);
    return { status, body: JSON.stringify({ status, message: wording(error) }) };
  },
};

/** OXR's `message` is a code; ours for each status (docs/drop-in.md), `invalid_base` where the base is at fault. */
function oxrCode(error: HttpError, request: FastifyRequest): string {
  switch (error.statusCode) {
    case 400: {
      const base = baseOf(request);
      return error.message.startsWith('base ') || error.message === `Unknown currency: ${base}` ? 'invalid_base' : 'invalid_request';
    }
    case 401:
      return error.message === 'Invalid API key' ? 'invalid_app_id' : 'missing_app_id';
    case 404:
      return 'not_found';
    case 429:
      return 'access_restricted';
    default:
      return (STATUS_CODES[error.statusCode] ?? 'error').toLowerCase().replaceAll(' ', '_');
  }
}

/** The base an OXR request names: its `base`, else USD; upper-cased as the answer shows it. */
function baseOf({ query }: FastifyRequest): string {
  return typeof query === 'object' && query !== null && 'base' in query && typeof query.base === 'string' ? query.base.toUpperCase() : 'USD';
}

const OXR_ERROR = z
  .strictObject({ error: z.literal(true), status: z.int(), message: z.string(), description: z.string() })
  .meta({
    id: 'OxrError',
    description: "Open Exchange Rates' error body: `message` a code, `description` this service's wording",
    examples: [{ error: true, status: 401, message: 'invalid_app_id', description: 'Invalid API key' }],
  });

export const OXR: Dialect = {
  tag: 'Open Exchange Rates',
  invalidStatus: 400,
  errorBody: OXR_ERROR,
  shape(error, request) {
    const status = statusIn(OXR, error);
    return { status, body: JSON.stringify({ error: true, status, message: oxrCode(error, request), description: wording(error) }) };
  },
};

/** onRequest, first on a drop-in path: every refusal from here on takes the dialect's shape. */
export function speaking(dialect: Dialect) {
  return function speaks(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
    request.errorShape = dialect.shape;
    done();
  };
}

/** The answers a drop-in route documents, each error in the dialect's body. */
export function dropInResponses(
  dialect: Dialect,
  ok: { body: ZodType; description: string },
  notFound: string | undefined,
  options: { validated: boolean; keyed: boolean },
): Record<number, ResponseDoc> {
  const errorBody = dialect.errorBody;
  const counted = options.keyed ? RATE_LIMIT : {};
  const responses: Record<number, ResponseDoc> = {
    200: { ...ok, headers: { ...ETAG, ...counted, ...REQUEST_ID } },
    304: { description: 'Not Modified: If-None-Match names the current ETag', headers: { ...ETAG, ...counted, ...REQUEST_ID } },
  };
  if (options.validated) {
    responses[dialect.invalidStatus] = {
      description: 'A parameter breaks a format rule (every failed rule, joined by "; "), the amount is not positive, or a currency is not tracked',
      body: errorBody,
      headers: { ...counted, ...REQUEST_ID },
    };
  }
  if (options.keyed) {
    responses[401] = { description: 'No usable key (not counted)', body: errorBody, headers: { ...WWW_AUTHENTICATE, ...REQUEST_ID } };
  }
  if (notFound !== undefined) responses[404] = { description: notFound, body: errorBody, headers: { ...counted, ...REQUEST_ID } };
  if (options.keyed) {
    responses[429] = { description: "The key's quota for the period is used up (not counted)", body: errorBody, headers: { ...RATE_LIMIT, ...RETRY_AFTER, ...REQUEST_ID } };
  }
  // Only a keyed route meets a backend: the quota store counts it.
  if (options.keyed) {
    responses[503] = { description: 'A storage backend cannot be reached; retry shortly', body: errorBody, headers: { ...RETRY_AFTER, ...REQUEST_ID } };
  }
  return responses;
}
