import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AmountNotPositiveError, NoDataError, NoDataInRangeError, UnknownCurrencyError } from '../domain/errors.js';
import { loggableError } from '../loggable-error.js';
import { StoreUnavailableError } from '../storage/ports.js';
import { requestPath } from './request-path.js';

/** The content type of every JSON answer, the service's own and its errors. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer other than 200, carrying the spec's message (an array for validation failures). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly messages: string | string[],
    /** SPEC §7: the 429 body has no `error` field. */
    readonly withErrorField = true,
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }
}

/** Never a guess: when a backend fails, the request is neither answered nor counted. */
export const UNAVAILABLE = 'Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.';

/** The answer any thrown error stands for: the spec's 400s and 404s, a 503 for a backend, else a 500. */
export function httpErrorOf(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof UnknownCurrencyError || error instanceof AmountNotPositiveError) return new HttpError(400, error.message);
  if (error instanceof NoDataError || error instanceof NoDataInRangeError) return new HttpError(404, error.message);
  if (error instanceof StoreUnavailableError) return new HttpError(503, UNAVAILABLE);
  const status = (error as Partial<FastifyError> | undefined)?.statusCode;
  // Framework errors below 500 (a bad URL encoding, an oversized body) describe the request.
  if (error instanceof Error && status !== undefined && status >= 400 && status < 500) return new HttpError(status, error.message);
  return new HttpError(500, 'Internal Server Error');
}

/** An error answer's body as sent. */
export function errorJson(error: HttpError): string {
  const { statusCode, messages: message } = error;
  return JSON.stringify(error.withErrorField ? { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error' } : { statusCode, message });
}

/** An error answer in another service's shape (DECISIONS §16): its status and body. */
export type ErrorShape = (error: HttpError, request: FastifyRequest) => { status: number; body: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the drop-in paths (http/drop-in/): every refusal there takes that service's shape. */
    errorShape?: ErrorShape;
  }
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  // DECISIONS §1: every 401 names the scheme it wants.
  if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
  const shaped = reply.request.errorShape?.(error, reply.request);
  if (shaped) return reply.code(shaped.status).type(JSON_TYPE).send(shaped.body);
  return reply.code(error.statusCode).type(JSON_TYPE).send(errorJson(error));
}

/** One place maps every failure to the spec's body (5xx bodies never carry internals) and logs the server's own. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const answer = httpErrorOf(error);
    if (answer.statusCode === 503) {
      // The outage is logged once as it begins and once as it ends (the stores report it); each
      // request it refuses is on its access line.
      request.log.debug({ err: loggableError(error) }, 'storage backend unavailable');
      reply.header('retry-after', '1');
    } else if (answer.statusCode >= 500) {
      request.log.error({ err: loggableError(error) }, 'request failed');
    }
    return sendError(reply, answer);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = requestPath(request.url);
    return sendError(reply, new HttpError(404, `Cannot ${request.method} ${path}`));
  });
}
