import type { TestContext } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import type { Clock } from '../../src/domain/quota.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import { freshTestStores } from './test-backend.js';
import { FIXTURES, startProductionServer } from './test-server.js';

/**
 * For tests that outlive one server: a database file prepared once (keys, data), on which
 * servers are started and stopped in turn, the way an operator restarts the service.
 * Wired like test-server.ts's startTestServer, which cannot reopen an existing file.
 */
export interface SharedDatabase {
  storeConfig: StoreConfig;
  env: Record<string, string>;
  beforeCleanup(close: () => Promise<unknown>): void;
  /** Valid keys, created before any server starts. */
  keys: { key: string; id: number }[];
}

export interface ServerOnDatabase {
  url: string;
  /** GET (or another method) with `key` (default: the database's first key). */
  get(path: string, init?: { key?: string; method?: string; headers?: Record<string, string> }): Promise<Response>;
  /** Stops the server; safe to call twice (the test's after-hook calls it again). */
  close(): Promise<void>;
}

export async function prepareDatabase(
  t: TestContext,
  options: { keys?: number; ingest?: string[]; /** Each key's own quota, by position (null or absent: QUOTA_LIMIT). */ quotas?: (number | null)[] } = {},
): Promise<SharedDatabase> {
  const backend = await freshTestStores(t);
  const stores = await openStores(backend.storeConfig);
  const keys: SharedDatabase['keys'] = [];
  for (let i = 0; i < (options.keys ?? 1); i++) {
    const key = generateApiKey();
    const record = await stores.keys.create(`key ${i + 1}`, hashApiKey(key), new Date(), options.quotas?.[i] ?? null);
    keys.push({ key, id: record.id });
  }
  for (const file of options.ingest ?? []) await runIngestion(stores.rates, ecb, { file: FIXTURES + file });
  await stores.close();
  return { ...backend, keys };
}

export async function startOnDatabase(
  t: TestContext,
  database: SharedDatabase,
  options: { env?: Record<string, string>; clock?: Clock } = {},
): Promise<ServerOnDatabase> {
  const { server, url } = await startProductionServer({ ...database.env, ...options.env }, options.clock);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.close());
  database.beforeCleanup(close);
  const firstKey = database.keys[0]?.key;
  return {
    url,
    close,
    get: (path, init = {}) =>
      fetch(url + path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${init.key ?? firstKey}`, ...init.headers },
      }),
  };
}
