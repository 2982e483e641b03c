import type { TestContext } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import type { Clock } from '../../src/domain/quota.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import { loadWebFiles } from '../../src/http/routes/web-page.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import { ECB_FIXTURES, FIXTURES, ManualClock, tempDir } from './fixtures.js';
import { freshTestStores, testBackendName } from './test-backend.js';

/** The paths and the clock are in fixtures.ts; re-exported for the suites that take them from here. */
export { ECB_FIXTURES, FIXTURES, ManualClock };

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
  ingestSources?: readonly { source: string; file: string }[];
  env?: Record<string, string>;
  clock?: Clock;
}

export { tempDir };

/**
 * The production server, configured through the same loader as `serve`, on a random port of
 * 127.0.0.1, without network ingestion or schedule, quiet, and refreshing every 200 ms.
 */
export async function startProductionServer(
  env: Record<string, string>,
  clock?: Clock,
  tuning?: Parameters<typeof startServer>[3],
): Promise<{ server: RunningServer; url: string }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST_ON_EMPTY: 'off',
    INGEST_SCHEDULE: 'off',
    LOG_LEVEL: 'silent',
    REFRESH_INTERVAL_MS: '200',
    ...env,
  });
  const server = await startServer(config, pino({ level: 'silent' }), clock, tuning);
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/**
 * Starts the production server (same config loader, same wiring) on a random port of 127.0.0.1,
 * with stores of its own (see test-backend.ts), and stops it when the test ends.
 */
export async function startTestServer(t: TestContext, options: TestServerOptions = {}, tuning?: Parameters<typeof startServer>[3]): Promise<TestServer> {
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

  const { server, url } = await startProductionServer({ ...backend.env, ...options.env }, options.clock, tuning);
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

/** Statuses whose answers have no body (a fetch Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * startTestServer, but each request goes through `app.inject` (light-my-request) instead of a
 * socket: the same app, stores and wiring, without TCP, for the unit loop (npm run test:unit).
 * The request target is normalised as fetch normalises it (dot segments, escapes, no fragment),
 * and the answer comes back as a fetch Response. The page at `/` is a stand-in (test/fixtures/web-page).
 * On PostgreSQL + Redis it is startTestServer: those suites also cover the socket.
 */
export async function startTestApp(t: TestContext, options: TestServerOptions = {}): Promise<TestServer> {
  if (testBackendName() !== 'sqlite') return startTestServer(t, options);
  // A stand-in page at `/`: the real one is the build's (dist/web), which test/web covers.
  const server = await startTestServer(t, options, { webFiles: loadWebFiles(`${FIXTURES}web-page/`) });
  const { app } = server.server;
  return {
    ...server,
    get: async (path, init = {}) => {
      const target = new URL(path, server.url);
      const method = init.method ?? 'GET';
      const answer = await app.inject({
        method,
        url: target.pathname + target.search,
        headers: { ...(init.auth === false ? {} : { authorization: `Bearer ${server.key}` }), ...init.headers },
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, String(one));
      }
      const body = method === 'HEAD' || NO_BODY.has(answer.statusCode) ? null : answer.rawPayload;
      return new Response(body, { status: answer.statusCode, statusText: answer.statusMessage, headers });
    },
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
