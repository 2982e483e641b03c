import { Redis } from 'ioredis';
import type { KeyStore, QuotaStore } from '../ports.js';
import { StoreUnavailableError } from '../ports.js';
import { redisCall } from './redis-errors.js';
import { adoptLegacyCounters, RedisQuotaStore, type AdoptionReport } from './redis-quota-store.js';

export interface RedisQuota {
  quota: QuotaStore;
  /** What the start-up step did to counters still named by key id (none without `keys`). */
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
   * The deployment's key store. Given, opening first moves the counters of its keys still named
   * by key id (as earlier versions named them) to their names by key hash (adoptLegacyCounters),
   * and `usage` also takes a bare key id.
   */
  keys?: Pick<KeyStore, 'activeKeys'>;
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
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
    options.onError?.(err);
  });

  const timeoutMs = options.connectTimeoutMs ?? 3_000;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.removeListener('ready', onReady);
        reject(new StoreUnavailableError('Redis', { cause: lastError ?? new Error(`no connection within ${timeoutMs} ms`) }));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
  } catch (err) {
    redis.disconnect();
    throw err;
  }

  let adopted: AdoptionReport = { moved: 0, dropped: 0 };
  if (options.keys) {
    try {
      adopted = await adoptLegacyCounters(redis, keyPrefix, await options.keys.activeKeys());
    } catch (err) {
      redis.disconnect();
      throw err;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    quota: new RedisQuotaStore(redis, keyPrefix, options.keys),
    adopted,
    ping: async () => {
      await redisCall(() => redis.ping());
    },
    close: () =>
      (closing ??= (async () => {
        try {
          await redis.quit();
        } catch {
          // Not connected (or the connection died while quitting): nothing is left to flush.
          redis.disconnect();
        }
      })()),
  };
}
