import { STATUS_CODES } from 'node:http';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NoDataError, UnknownCurrencyError } from '../domain/errors.js';
import { loggableError } from '../loggable-error.js';
import { StoreUnavailableError } from '../storage/ports.js';

/** The content type of every JSON answer, the service's own and its refusals. */
export const JSON_TYPE = 'application/json; charset=utf-8';

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

function errorAnswerOf(error: unknown): ErrorAnswer {
  const refusal = refusalOf(error);
  if (refusal) return refusal;
  if (error instanceof HttpError) return error;
  if (error instanceof StoreUnavailableError) return new HttpError(503, UNAVAILABLE);
  const status = (error as Partial<FastifyError> | undefined)?.statusCode;
  // Framework errors below 500 (a bad URL encoding, an oversized body) describe the request.
  if (error instanceof Error && status !== undefined && status >= 400 && status < 500) return new HttpError(status, error.message);
  return new HttpError(500, 'Internal Server Error');
}

/**
 * The refusal a compute's error stands for (a 400 or a 404 of the spec), or undefined for any
 * other error, which errorAnswerOf maps (a failure, answered and logged as one). A plain
 * answer, not a new HttpError: an Error captures its stack when made, which was a tenth of the
 * server's CPU under a stream of refused conversions (cpu-prof).
 */
export function refusalOf(error: unknown): ErrorAnswer | undefined {
  if (error instanceof HttpError) return error.statusCode < 500 ? error : undefined;
  if (error instanceof UnknownCurrencyError) return { statusCode: 400, messages: error.message, withErrorField: true };
  if (error instanceof NoDataError) return { statusCode: 404, messages: error.message, withErrorField: true };
  return undefined;
}

/** An error answer's body as sent. */
export function errorJson(error: ErrorAnswer): string {
  return JSON.stringify(errorBody(error.statusCode, error.messages, error.withErrorField));
}

/** DECISIONS §1: every 401 names the scheme it wants. */
export const AUTH_CHALLENGE: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer' };

export function sendError(reply: FastifyReply, error: ErrorAnswer): FastifyReply {
  if (error.statusCode === 401) reply.headers(AUTH_CHALLENGE);
  return reply.code(error.statusCode).type(JSON_TYPE).send(errorJson(error));
}

/**
 * One place maps every failure to the spec's body (5xx bodies never carry internals), logs it
 * when it is the server's, and names the headers it adds. Used by Fastify's error handler and by
 * the fast path, whose only failure is the quota store's.
 */
export function failureAnswer(error: unknown, log: FastifyBaseLogger | undefined): { answer: ErrorAnswer; headers: Record<string, string> } {
  const answer = errorAnswerOf(error);
  if (answer.statusCode === 503) {
    log?.warn({ err: loggableError(error) }, 'storage backend unavailable');
    return { answer, headers: { 'retry-after': '1' } };
  }
  if (answer.statusCode >= 500) log?.error({ err: loggableError(error) }, 'request failed');
  return { answer, headers: {} };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { answer, headers } = failureAnswer(error, request.log);
    return sendError(reply.headers(headers), answer);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return sendError(reply, new HttpError(404, `Cannot ${request.method} ${path}`));
  });
}
