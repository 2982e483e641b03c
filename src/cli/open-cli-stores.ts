import { loadConfig } from '../config.js';
import { openStores } from '../storage/open-stores.js';
import type { OpenedStores } from '../storage/ports.js';

/** Opens the configured stores (which brings the schema up to date), for one CLI command. */
export async function withStores<T>(work: (stores: OpenedStores) => Promise<T>): Promise<T> {
  const stores = await openStores(loadConfig().databaseUrl);
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}
