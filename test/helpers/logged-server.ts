import type { TestContext } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { startServer } from '../../src/server.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshTestStores } from './test-backend.js';

/** A log line as the server writes it: JSON with at least a level and a message. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface LoggedServer {
  port: number;
  /** A valid key, created before the start. */
  key: string;
  /** Every line the server has logged so far, parsed, in order. */
  lines: LogLine[];
}

/**
 * The production server (configured through the same loader as `serve`) on a random port, on a
 * store of its own unless `env` names one, with one key, logging at info into `lines`.
 */
export async function startLoggedServer(t: TestContext, env: Record<string, string> = {}): Promise<LoggedServer> {
  const backend = await freshTestStores(t);
  const config = loadConfig({ ...backend.env, PORT: '0', HOST: '127.0.0.1', INGEST_ON_EMPTY: 'off', INGEST_SCHEDULE: 'off', ...env });
  const key = generateApiKey();
  const stores = await openStores({ ...backend.storeConfig, databaseUrl: config.databaseUrl });
  await stores.keys.create('test', hashApiKey(key), new Date());
  await stores.close();
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine)) });
  const server = await startServer(config, log);
  backend.beforeCleanup(() => server.close());
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port, key, lines };
}
