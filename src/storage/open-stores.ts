import { resolve } from 'node:path';
import type { BackendEvents, OpenedStores, ServingStores } from './ports.js';
import { StoreUnavailableError } from './ports.js';
import { openSqliteStores } from './sqlite/open-sqlite-stores.js';

export interface StoreConfig {
  databaseUrl: string;
  /** Quota counters in Redis instead of the database. */
  redisUrl?: string | undefined;
  redisKeyPrefix?: string;
  /** Told about backend connection errors as they happen (they never carry secrets). */
  onBackendError?: (err: Error) => void;
  /**
   * Told when a store call could not reach its backend and when one succeeds (outages begin and
   * end), and warned about a backend set up to lose data. The server logs outages from these.
   */
  events?: BackendEvents;
  /**
   * A Redis that cannot be reached at first does not fail the open (the server starts, not ready,
   * and counts once Redis answers). The database must still be reachable: there is nothing to serve
   * without it.
   */
  redisMayStartUnreachable?: boolean;
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

type AsyncMethod = (...args: never[]) => Promise<unknown>;

/**
 * `store` with each of `methods` reporting to `events`: a StoreUnavailableError as that
 * operation's failure, a success as the operation's success on `backend`. Everything else of the
 * store is reached through the prototype chain, unchanged.
 */
function watched<T extends object>(store: T, prefix: string, methods: readonly (keyof T & string)[], backend: string, events: BackendEvents): T {
  const reporting = Object.create(store) as Record<string, AsyncMethod>;
  for (const name of methods) {
    const method = (store as Record<string, AsyncMethod>)[name]!;
    const operation = `${prefix}.${name}`;
    const succeeded = <R>(value: R): R => {
      events.available(backend, operation);
      return value;
    };
    const failed = (err: unknown): never => {
      if (err instanceof StoreUnavailableError) events.unavailable(err, operation);
      throw err;
    };
    reporting[name] = (...args: never[]) => method.apply(store, args).then(succeeded, failed);
  }
  return reporting as unknown as T;
}

/** Opens the adapters the configuration names, running pending migrations first. */
export async function openStores(config: StoreConfig | string): Promise<ServingStores> {
  const { databaseUrl, redisUrl, redisKeyPrefix, onBackendError, events, redisMayStartUnreachable } =
    typeof config === 'string' ? ({ databaseUrl: config } as StoreConfig) : config;
  const databaseBackend = databaseUrl.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL';
  const onDatabaseError = (err: Error) => {
    onBackendError?.(err);
    // An idle connection that died (the server restarted, the network dropped).
    events?.unavailable(err instanceof StoreUnavailableError ? err : new StoreUnavailableError(databaseBackend, { cause: err }), 'idle connection');
  };
  const opened = await openDatabase(databaseUrl, onBackendError || events ? onDatabaseError : undefined);
  const database: OpenedStores = events
    ? {
        ...opened,
        rates: watched(opened.rates, 'rates', ['merge', 'version', 'rowsSince', 'daysSince', 'lastDay'], databaseBackend, events),
        keys: watched(opened.keys, 'keys', ['create', 'list', 'revoke', 'setQuota', 'findActive', 'activeKeys', 'version'], databaseBackend, events),
        quota: watched(opened.quota, 'quota', ['consume', 'usage'], databaseBackend, events),
        jobs: watched(opened.jobs, 'jobs', ['claim', 'complete'], databaseBackend, events),
        ping: watched({ ping: () => opened.ping() }, 'database', ['ping'], databaseBackend, events).ping,
      }
    : opened;
  if (redisUrl === undefined) return { ...database, pingQuota: () => database.ping() };
  const { openRedisQuota } = await import('./redis/open-redis-quota.js');
  let redis;
  try {
    // With the key store: counters still named by key id are moved to their key's hash first.
    redis = await openRedisQuota(redisUrl, redisKeyPrefix ?? 'currency-rates:', {
      keys: opened.keys,
      ...(onBackendError ? { onError: onBackendError } : {}),
      ...(events ? { events } : {}),
      ...(redisMayStartUnreachable ? { mayStartUnreachable: true } : {}),
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  const redisPing = events ? watched({ ping: () => redis.ping() }, 'redis', ['ping'], 'Redis', events).ping : () => redis.ping();
  return {
    ...database,
    quota: events ? watched(redis.quota, 'quota', ['consume', 'usage'], 'Redis', events) : redis.quota,
    ping: async () => {
      await Promise.all([database.ping(), redisPing()]);
    },
    pingQuota: redisPing,
    close: async () => {
      await Promise.all([database.close(), redis.close()]);
    },
  };
}
