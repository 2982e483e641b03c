import pg from 'pg';
import { isPgUnavailable } from './pg-errors.js';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface PgPoolOptions {
  /** Connections per process (default 10): each instance holds its own pool. */
  max?: number;
  /** Called with errors of idle connections (the server restarted, the network dropped). */
  onError?: (err: Error) => void;
}

/** Server-side cap on one statement (request-path queries are single-digit milliseconds). */
export const STATEMENT_TIMEOUT_MS = 5_000;
/** Client-side cap on waiting for any answer: covers a server or network that went silent. */
export const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 2_000;
/** Budget of the statements of a merge or a migration, which may wait for another instance's lock. */
export const LONG_TIMEOUT_MS = 120_000;

/**
 * int8 (bigint) arrives from the server as text, and pg hands it over as a string by default so
 * that no digit is lost. Our bigints are versions, ids and ms timestamps, all far below 2^53, so
 * they are read as numbers, and a value that would not survive the conversion fails the query
 * instead of coming back rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is beyond Number.MAX_SAFE_INTEGER`);
  return value;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A small pool that fails fast: a connection attempt (or the wait for a free connection) gives up
 * after 2 s, a statement after 5 s on the server, and a query whose answer never comes after 7 s
 * on the client. Errors on idle connections go to the `error` listener; without one the process
 * would crash on the first database restart.
 */
export function createPgPool(connectionString: string, options: PgPoolOptions = {}): PgPool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    // A client that stalls inside a transaction must not hold the rates or quota locks forever.
    idle_in_transaction_session_timeout: 60_000,
    keepAlive: true,
    application_name: 'currency-rates',
    types,
  });
  pool.on('error', (err) => options.onError?.(err));
  return pool;
}

/** pg.QueryConfig plus the per-query client-side timeout pg supports but its types omit. */
export function longQuery(text: string, values?: unknown[]): pg.QueryConfig {
  const config: pg.QueryConfig & { query_timeout: number } = { text, query_timeout: LONG_TIMEOUT_MS + 5_000 };
  // Without values the text goes as a simple query, which may hold several statements.
  if (values) config.values = values;
  return config;
}

export interface TransactionOptions {
  /** BEGIN's modifiers, e.g. 'ISOLATION LEVEL REPEATABLE READ READ ONLY'. */
  mode?: string;
  /** Let the transaction's statements run (and wait for locks) up to LONG_TIMEOUT_MS. */
  long?: boolean;
}

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK when
 * it throws. A connection that failed is destroyed rather than returned to the pool.
 */
export async function withTransaction<T>(
  pool: PgPool,
  work: (client: PgClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  // pg-pool removes its own error listener while a client is checked out: an error between two
  // queries of the transaction (the server went away while we compute) would otherwise crash.
  let connectionError: Error | undefined;
  const onError = (err: Error) => {
    connectionError = err;
  };
  client.on('error', onError);
  let releaseError: Error | undefined;
  try {
    await client.query(options.mode ? `BEGIN ${options.mode}` : 'BEGIN');
    if (options.long) await client.query(`SET LOCAL statement_timeout = ${LONG_TIMEOUT_MS}`);
    const result = await work(client);
    await client.query(options.long ? longQuery('COMMIT') : 'COMMIT');
    return result;
  } catch (err) {
    if (connectionError || isPgUnavailable(err)) {
      releaseError = connectionError ?? (err as Error);
    } else {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        releaseError = rollbackError as Error;
      }
    }
    throw err;
  } finally {
    client.removeListener('error', onError);
    // release(err) destroys the connection; an in-doubt session must not serve another caller.
    client.release(releaseError ?? connectionError);
  }
}

/**
 * What `read` returns and the data version `name` (table data_versions), from one committed state:
 * a read-only REPEATABLE READ transaction, so a merge committing between the two cannot split them.
 */
export async function readWithVersion<T>(
  pool: PgPool,
  name: string,
  read: (client: PgClient) => Promise<T>,
  options: { long: boolean },
): Promise<{ value: T; version: number }> {
  return withTransaction(
    pool,
    async (client) => {
      const value = await read(client);
      const current = await client.query<{ version: number }>('SELECT version FROM data_versions WHERE name = $1', [name]);
      return { value, version: current.rows[0]!.version };
    },
    { mode: 'ISOLATION LEVEL REPEATABLE READ READ ONLY', long: options.long },
  );
}
