import assert from 'node:assert/strict';
import { read } from './test-server.js';

/** SPEC §7 / DECISIONS §7: every JSON answer carries exactly this type. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export type ReadResponse = Awaited<ReturnType<typeof read>>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

/** The error body of SPEC §7 in its field order: statusCode, message, error (absent for 429). */
export function errorBody(statusCode: number, message: string | string[]): Record<string, unknown> {
  if (statusCode === 429) return { statusCode, message };
  const error = STATUS_TEXT[statusCode];
  assert.ok(error, `no status text known for ${statusCode}`);
  return { statusCode, message, error };
}

/**
 * Reads the answer and asserts status, the exact body bytes (JSON.stringify of `body`, so key
 * order counts) and the content type.
 */
export async function expectJson(response: Response | Promise<Response>, status: number, body: unknown, what = ''): Promise<ReadResponse> {
  const answer = await read(await response);
  const label = what ? `${what}: ` : '';
  assert.equal(answer.status, status, `${label}status (body ${answer.text})`);
  assert.equal(answer.text, JSON.stringify(body), `${label}body`);
  assert.equal(answer.headers.get('content-type'), JSON_TYPE, `${label}content-type`);
  return answer;
}

/** expectJson for an error answer built with errorBody. */
export function expectError(
  response: Response | Promise<Response>,
  status: number,
  message: string | string[],
  what = '',
): Promise<ReadResponse> {
  return expectJson(response, status, errorBody(status, message), what);
}

/** X-RateLimit-Remaining as a number (asserting it is there). */
export function remainingOf(answer: { headers: Headers }): number {
  const value = answer.headers.get('x-ratelimit-remaining');
  assert.ok(value !== null, 'X-RateLimit-Remaining is present');
  assert.match(value, /^\d+$/);
  return Number(value);
}

/** SPEC §7's validation messages, verbatim. */
export const MSG = {
  from: 'from must be a 3-letter currency code',
  to: 'to must be a 3-letter currency code',
  toList: 'to must be a comma-separated list of 3-letter currency codes',
  toMin: 'to must contain at least 1 currency code',
  toMax: 'to must contain at most 25 currency codes',
  amount: 'amount must be a numeric string',
  positive: 'amount must be a positive number',
  base: 'base must be a 3-letter currency code',
  symbols: 'symbols must be a comma-separated list of 3-letter currency codes',
  date: 'date must be a valid calendar date in YYYY-MM-DD format',
  start: 'start must be a valid calendar date in YYYY-MM-DD format',
  end: 'end must be a valid calendar date in YYYY-MM-DD format',
  order: 'end must not be before start',
  noData: 'No exchange rate data has been ingested yet',
  malformedAuth: 'Missing or malformed Authorization header',
  invalidKey: 'Invalid API key',
} as const;

export const noDataOn = (date: string): string => `No exchange rate data available for ${date}`;
/** DECISIONS §8: no day of a range has a rate for the base (an open range has no end). */
export const noDataInRange = (start: string, end: string | undefined): string =>
  end === undefined ? `No exchange rate data available from ${start}` : `No exchange rate data available between ${start} and ${end}`;
export const unknownCurrency = (code: string): string => `Unknown currency: ${code}`;
export const rateLimited = (limit: number, days: number): string =>
  `Rate limit exceeded: ${limit} requests per ${days}-day period`;
