import type { OpenedStores } from '../ports.js';
import { openSqlite, statement, type SqliteDb } from './connection.js';
import { migrateSqlite } from './migrate.js';
import { SqliteJobClaims } from './sqlite-job-claims.js';
import { SqliteKeyStore } from './sqlite-key-store.js';
import { SqliteQuotaStore } from './sqlite-quota-store.js';
import { SqliteRatesStore } from './sqlite-rates-store.js';

/** Opens the file and brings its schema up to date before any statement is prepared. */
export function openSqliteStores(path: string): OpenedStores {
  const db = openSqlite(path);
  let applied: string[];
  try {
    applied = migrateSqlite(db);
  } catch (err) {
    db.close();
    throw err;
  }
  // The quota counts on a connection of its own that never sleeps waiting for the write lock (see
  // SqliteQuotaStore.waitForLock). An in-memory database exists only on its one connection.
  let quotaDb: SqliteDb;
  try {
    quotaDb = path === ':memory:' ? db : openSqlite(path, { lockWaitMs: 0 });
  } catch (err) {
    db.close();
    throw err;
  }
  const probe = statement(db, 'SELECT 1');
  return {
    rates: new SqliteRatesStore(db),
    keys: new SqliteKeyStore(db),
    quota: new SqliteQuotaStore(quotaDb),
    jobs: new SqliteJobClaims(db),
    ping: async () => {
      probe.get();
    },
    appliedMigrations: applied,
    close: async () => {
      if (quotaDb !== db) quotaDb.close();
      db.close();
    },
  };
}
