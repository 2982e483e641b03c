import { loadConfig, type Config } from '../config.js';
import { openStores } from '../storage/open-stores.js';
import type { OpenedStores } from '../storage/ports.js';

/**
 * Opens the configured stores (which brings the schema up to date), for one CLI command. The
 * database only, unless `withQuota`: then the quota counters too, from Redis when REDIS_URL is
 * set, as the servers count them (a command that only writes keys must not need Redis).
 */
export async function withStores<T>(work: (stores: OpenedStores, config: Config) => Promise<T>, { withQuota = false } = {}): Promise<T> {
  const config = loadConfig();
  const stores = await openStores(
    withQuota ? { databaseUrl: config.databaseUrl, redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix } : config.databaseUrl,
  );
  try {
    return await work(stores, config);
  } finally {
    await stores.close();
  }
}
