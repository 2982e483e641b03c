import { Redis } from 'ioredis';
import type { BackendEvents, KeyStore, QuotaStore } from '../ports.js';
import { StoreUnavailableError } from '../ports.js';
import { redisCall } from './redis-errors.js';
import { adoptLegacyCounters, RedisQuotaStore, type AdoptionReport } from './redis-quota-store.js';

export interface RedisQuota {
  quota: QuotaStore;
  /** What the start-up step did to counters still named by key id (none without `keys`, or before the first connection). */
  adopted: AdoptionReport;
  /** Resolves when Redis answers PING; rejects with StoreUnavailableError. For /ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RedisQuotaOptions {
  /** How long openRedisQuota waits for the first connection (default 3000 ms). */
  connectTimeoutMs?: number;
  /**
   * Connection errors, as they happen (every failed reconnect attempt while Redis is down).
   * The error names the host and port, never the password.
   */
  onError?: (err: Error) => void;
  /**
   * Told of connection losses ("connection" unavailable) and of each (re)connection, and warned
   * when the server persists nothing (a restart forgets every count).
   */
  events?: BackendEvents;
  /**
   * When Redis cannot be reached at first, open anyway instead of rejecting: the store then
   * answers StoreUnavailableError (and ping rejects) until the first connection, and the start-up
   * steps (adoption, the persistence check) run then. Without it, openRedisQuota rejects.
   */
  mayStartUnreachable?: boolean;
  /**
   * The deployment's key store. Given, opening first moves the counters of its keys still named
   * by key id (as earlier versions named them) to their names by key hash (adoptLegacyCounters),
   * and `usage` also takes a bare key id.
   */
  keys?: Pick<KeyStore, 'activeKeys'>;
}

/** Said at start when Redis persists nothing: the counts live only in its memory. */
export const NO_PERSISTENCE_WARNING =
  'Redis keeps no persistence (appendonly no, save ""): a Redis restart forgets every quota count; turn on appendonly or save snapshots';

/**
 * Whether the server persists anything, as far as it lets us see: CONFIG GET appendonly and save.
 * A server that refuses CONFIG (managed services rename or disable it) is not judged.
 */
async function persistenceWarning(redis: Redis): Promise<string | undefined> {
  try {
    const [, appendonly] = (await redis.config('GET', 'appendonly')) as string[];
    const [, save] = (await redis.config('GET', 'save')) as string[];
    return appendonly === 'no' && save === '' ? NO_PERSISTENCE_WARNING : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A client that fails fast while Redis is down instead of queueing requests behind a dead
 * connection: no offline queue, a command gets 1 s, a command cut off by a dropped connection is
 * failed after one reconnect attempt and never replayed (a replayed quota script would count a
 * request the caller already answered with 503). Reconnection keeps going in the background,
 * backing off up to 2 s, so the instance recovers on its own when Redis comes back.
 */
export async function openRedisQuota(url: string, keyPrefix: string, options: RedisQuotaOptions = {}): Promise<RedisQuota> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // The quota scripts of one event-loop turn leave in one write (one round trip for a burst).
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 5), 2_000),
  });
  const { events } = options;
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
    options.onError?.(err);
    events?.unavailable(new StoreUnavailableError('Redis', { cause: err }), 'connection');
  });

  const timeoutMs = options.connectTimeoutMs ?? 3_000;
  const connected = await new Promise<boolean>((resolve) => {
    const settle = (ok: boolean) => {
      clearTimeout(timer);
      redis.removeListener('ready', onReady);
      redis.removeListener('error', onError);
      resolve(ok);
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    const onReady = () => settle(true);
    // Allowed to start without it, the first refusal settles it: waiting longer changes nothing.
    const onError = () => {
      if (options.mayStartUnreachable) settle(false);
    };
    redis.once('ready', onReady);
    redis.on('error', onError);
  });
  if (!connected && !options.mayStartUnreachable) {
    redis.disconnect();
    throw new StoreUnavailableError('Redis', { cause: lastError ?? new Error(`no connection within ${timeoutMs} ms`) });
  }

  let adopted: AdoptionReport = { moved: 0, dropped: 0 };
  /** The start-up steps, once connected: until they are done, nothing is counted. */
  const prepare = async () => {
    if (options.keys) adopted = await adoptLegacyCounters(redis, keyPrefix, await options.keys.activeKeys());
    const warning = await persistenceWarning(redis);
    if (warning !== undefined) events?.warning(warning);
  };

  let prepared = false;
  if (connected) {
    try {
      await prepare();
      prepared = true;
    } catch (err) {
      redis.disconnect();
      throw err;
    }
  }
  let preparing: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const prepareWhenConnected = () => {
    if (prepared || preparing || redis.status !== 'ready') return;
    preparing = prepare().then(
      () => {
        prepared = true;
      },
      (err: unknown) => {
        // The key store or Redis failed: an operation of its own, over with that backend's next success.
        if (err instanceof StoreUnavailableError) events?.unavailable(err, 'quota.prepare');
        // Tried again shortly, as long as the connection holds.
        retry = setTimeout(prepareWhenConnected, 1_000);
        retry.unref();
      },
    ).finally(() => {
      preparing = undefined;
    });
  };
  let closing: Promise<void> | undefined;
  redis.on('ready', () => {
    events?.available('Redis', 'connection');
    prepareWhenConnected();
  });
  // A connection lost: said at once, before the commands it fails say only that the client is offline.
  redis.on('close', () => {
    if (closing || !prepared) return;
    const cause = new Error(`connection to ${redis.options.host ?? 'localhost'}:${redis.options.port ?? 6379} closed`);
    events?.unavailable(new StoreUnavailableError('Redis', { cause }), 'connection');
  });

  const store = new RedisQuotaStore(redis, keyPrefix, options.keys);
  const notYet = () => new StoreUnavailableError('Redis', { cause: lastError ?? new Error('not connected yet') });
  // Opened connected, the store is used as it is; opened before Redis could be reached, it waits for the start-up steps.
  const quota: QuotaStore = prepared
    ? store
    : {
        consume: (key, now, policy) => (prepared ? store.consume(key, now, policy) : Promise.reject(notYet())),
        usage: (key) => (prepared ? store.usage(key) : Promise.reject(notYet())),
      };

  return {
    quota,
    get adopted() {
      return adopted;
    },
    ping: async () => {
      if (!prepared) throw notYet();
      await redisCall(() => redis.ping());
    },
    close: () =>
      (closing ??= (async () => {
        clearTimeout(retry);
        try {
          await redis.quit();
        } catch {
          // Not connected (or the connection died while quitting): nothing is left to flush.
          redis.disconnect();
        }
      })()),
  };
}
