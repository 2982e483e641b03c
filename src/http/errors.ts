import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NoDataError, UnknownCurrencyError } from '../domain/errors.js';
import { loggableError } from '../loggable-error.js';
import { StoreUnavailableError } from '../storage/ports.js';

/** An answer other than 200, carrying the spec's message (an array for validation failures). */
export interface ErrorAnswer {
  readonly statusCode: number;
  readonly messages: string | string[];
  /** SPEC §7: the 429 body has no `error` field. */
  readonly withErrorField: boolean;
}

/** The same, thrown from where answering directly is not possible (route handlers, the domain's callers). */
export class HttpError extends Error implements ErrorAnswer {
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

export function errorBody(statusCode: number, message: string | string[], withErrorField = true) {
  return withErrorField
    ? { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error' }
    : { statusCode, message };
}

/** Never a guess: when a backend fails, the request is neither answered nor counted. */
export const UNAVAILABLE = 'Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.';

function toHttpError(error: FastifyError | Error): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof UnknownCurrencyError) return new HttpError(400, error.message);
  if (error instanceof NoDataError) return new HttpError(404, error.message);
  if (error instanceof StoreUnavailableError) return new HttpError(503, UNAVAILABLE);
  const status = (error as FastifyError).statusCode;
  // Framework errors below 500 (a bad URL encoding, an oversized body) describe the request.
  if (status !== undefined && status >= 400 && status < 500) return new HttpError(status, error.message);
  return new HttpError(500, 'Internal Server Error');
}

export function sendError(reply: FastifyReply, error: ErrorAnswer): FastifyReply {
  if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(error.statusCode, error.messages, error.withErrorField)));
}

/** One place maps every failure to the spec's body; 5xx bodies never carry internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    if (httpError.statusCode === 503) {
      request.log.warn({ err: loggableError(error) }, 'storage backend unavailable');
      reply.header('retry-after', '1');
    } else if (httpError.statusCode >= 500) {
      request.log.error({ err: loggableError(error) }, 'request failed');
    }
    return sendError(reply, httpError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return sendError(reply, new HttpError(404, `Cannot ${request.method} ${path}`));
  });
}
