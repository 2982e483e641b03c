import type { OpenedStores } from '../ports.js';
import { pgCall } from './pg-errors.js';
import { PgJobClaims } from './pg-job-claims.js';
import { PgKeyStore } from './pg-key-store.js';
import { migratePostgres } from './pg-migrate.js';
import { createPgPool, type PgPoolOptions } from './pg-pool.js';
import { PgQuotaStore } from './pg-quota-store.js';
import { PgRatesStore } from './pg-rates-store.js';

/**
 * Connects, brings the schema up to date (tables go in the first schema of the connection's
 * search_path, e.g. `?options=-c%20search_path%3Drates`), then builds the stores on one pool.
 * Rejects with StoreUnavailableError when the server cannot be reached.
 */
export async function openPostgresStores(connectionString: string, options: PgPoolOptions = {}): Promise<OpenedStores> {
  const pool = createPgPool(connectionString, options);
  let applied: string[];
  try {
    applied = await migratePostgres(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    rates: new PgRatesStore(pool),
    keys: new PgKeyStore(pool),
    quota: new PgQuotaStore(pool),
    jobs: new PgJobClaims(pool),
    ping: async () => {
      await pgCall(() => pool.query('SELECT 1'));
    },
    appliedMigrations: applied,
    // pool.end() rejects when called twice; closing twice is harmless here.
    close: () => (closing ??= pool.end()),
  };
}
