import type { TestContext } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import type { Clock } from '../../src/domain/quota.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import { ECB_FIXTURES } from './ecb-history-csv.js';
import { tempDir } from './temp-dir.js';
import { freshTestStores } from './test-backend.js';

export const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;
/** The ECB's own files (test/fixtures/ecb/, ends with a slash); the history CSV is historyCsvPath(). */
export { ECB_FIXTURES };

/** A clock tests move by hand instead of sleeping. */
export class ManualClock implements Clock {
  constructor(public current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestServer {
  url: string;
  /** A valid key (created before start). */
  key: string;
  keyId: number;
  /** Where the server's stores are: open them with openStores(storeConfig). */
  storeConfig: StoreConfig;
  databaseUrl: string;
  server: RunningServer;
  /** GET (or another method) with the test key unless headers say otherwise. */
  get(path: string, init?: { headers?: Record<string, string>; method?: string; auth?: boolean }): Promise<Response>;
}

export interface TestServerOptions {
  /** Fixture file names (under test/fixtures) or absolute paths, ingested before start, in order. */
  ingest?: string[];
  /** Other sources' documents (absolute paths), each ingested with `ingest --source ID --file PATH` before start. */
  ingestSources?: { source: string; file: string }[];
  env?: Record<string, string>;
  clock?: Clock;
}

export { tempDir };

/**
 * The production server, configured through the same loader as `serve`, on a random port of
 * 127.0.0.1, without network ingestion or schedule, quiet, and refreshing every 200 ms.
 */
export async function startProductionServer(env: Record<string, string>, clock?: Clock): Promise<{ server: RunningServer; url: string }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST_ON_EMPTY: 'off',
    INGEST_SCHEDULE: 'off',
    LOG_LEVEL: 'silent',
    REFRESH_INTERVAL_MS: '200',
    ...env,
  });
  const server = await startServer(config, pino({ level: 'silent' }), clock);
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/**
 * Starts the production server (same config loader, same wiring) on a random port of 127.0.0.1,
 * with stores of its own (see test-backend.ts), and stops it when the test ends.
 */
export async function startTestServer(t: TestContext, options: TestServerOptions = {}): Promise<TestServer> {
  const backend = await freshTestStores(t);
  const key = generateApiKey();
  const stores = await openStores(backend.storeConfig);
  const record = await stores.keys.create('test', hashApiKey(key), new Date());
  for (const file of options.ingest ?? []) {
    await runIngestion(stores.rates, ecb, { file: file.startsWith('/') ? file : FIXTURES + file });
  }
  for (const { source, file } of options.ingestSources ?? []) {
    const adapter = sourceAdapter(source);
    if (adapter === undefined) throw new Error(`no source ${source}`);
    await runIngestion(stores.rates, adapter, { file });
  }
  await stores.close();

  const { server, url } = await startProductionServer({ ...backend.env, ...options.env }, options.clock);
  backend.beforeCleanup(() => server.close());
  return {
    url,
    key,
    keyId: record.id,
    storeConfig: backend.storeConfig,
    databaseUrl: backend.storeConfig.databaseUrl,
    server,
    get: (path, init = {}) =>
      fetch(url + path, {
        method: init.method ?? 'GET',
        headers: { ...(init.auth === false ? {} : { authorization: `Bearer ${key}` }), ...init.headers },
      }),
  };
}

/** Reads a response as status, body text and parsed JSON (when any). */
export async function read(response: Response): Promise<{ status: number; text: string; json: unknown; headers: Headers }> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}
