import { StoreUnavailableError } from '../ports.js';

/**
 * SQLSTATE classes and codes that mean "the database could not serve this", as opposed to a bug
 * in our SQL: connection exceptions (08), resources (53), operator intervention (57: admin or
 * crash shutdown, cannot connect now, statement timeout), system errors (58), authentication and
 * a missing database (28, 3D000: the backend is misconfigured from our side of the wire), and
 * serialisation failures and deadlocks (40001, 40P01: transient, the caller may retry).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58', '28']);
const UNAVAILABLE_CODES = new Set(['3D000', '40001', '40P01', '55P03']);

/** Socket-level errors from node:net / node:dns, raised by the driver as they are. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  'EAI_AGAIN', 'ECONNABORTED', 'EADDRNOTAVAIL',
]);

/**
 * Errors node-postgres and pg-pool raise as plain `Error`s, told apart only by their message:
 * pool checkout timeout, connect timeout, query_timeout, a dropped connection, an ended pool.
 */
const DRIVER_MESSAGES = [
  /^timeout exceeded when trying to connect/,
  /^timeout expired/,
  /^Query read timeout/,
  /^Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

export function isPgUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof StoreUnavailableError) return true;
  if (err instanceof AggregateError) return err.errors.some(isPgUnavailable);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || UNAVAILABLE_CODES.has(code))) {
      return true;
    }
  }
  return DRIVER_MESSAGES.some((pattern) => pattern.test(err.message));
}

/** The driver's error as the ports define it: unavailability wrapped, programming errors as they are. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  return isPgUnavailable(err) ? new StoreUnavailableError('PostgreSQL', { cause: err }) : err;
}

/** Runs `work`, rethrowing its failures through toStoreError. The one boundary of every adapter call. */
export async function pgCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toStoreError(err);
  }
}
