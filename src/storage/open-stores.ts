import { resolve } from 'node:path';
import type { OpenedStores } from './ports.js';
import { openSqliteStores } from './sqlite/open-sqlite-stores.js';

export interface StoreConfig {
  databaseUrl: string;
  /** Quota counters in Redis instead of the database. */
  redisUrl?: string | undefined;
  redisKeyPrefix?: string;
  /** Told about backend connection errors as they happen (they never carry secrets). */
  onBackendError?: (err: Error) => void;
}

async function openDatabase(databaseUrl: string, onError?: (err: Error) => void): Promise<OpenedStores> {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    return openSqliteStores(path === ':memory:' ? path : resolve(path));
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Loaded only when used: a SQLite deployment starts without the drivers it does not need.
    const { openPostgresStores } = await import('./postgres/open-postgres-stores.js');
    return openPostgresStores(databaseUrl, onError ? { onError } : {});
  }
  throw new Error(`DATABASE_URL: unsupported scheme (expected sqlite:PATH or postgres://…)`);
}

/** Opens the adapters the configuration names, running pending migrations first. */
export async function openStores(config: StoreConfig | string): Promise<OpenedStores> {
  const { databaseUrl, redisUrl, redisKeyPrefix, onBackendError } = typeof config === 'string' ? { databaseUrl: config } : config;
  const database = await openDatabase(databaseUrl, onBackendError);
  if (redisUrl === undefined) return database;
  const { openRedisQuota } = await import('./redis/open-redis-quota.js');
  let redis;
  try {
    // With the key store: counters still named by key id are moved to their key's hash first.
    redis = await openRedisQuota(redisUrl, redisKeyPrefix ?? 'currency-rates:', { keys: database.keys, ...(onBackendError ? { onError: onBackendError } : {}) });
  } catch (err) {
    await database.close();
    throw err;
  }
  return {
    ...database,
    quota: redis.quota,
    ping: async () => {
      await Promise.all([database.ping(), redis.ping()]);
    },
    close: async () => {
      await Promise.all([database.close(), redis.close()]);
    },
  };
}
