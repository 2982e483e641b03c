import type { TestContext } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { TrackedCurrencies } from '../../src/domain/currencies.js';
import { loadWebFiles } from '../../src/http/routes/web-page.js';
import { KeyCache } from '../../src/live/key-cache.js';
import { RatesView } from '../../src/live/rates-view.js';
import { openStores } from '../../src/storage/open-stores.js';
import { StoreUnavailableError } from '../../src/storage/ports.js';
import type { Answer } from './openapi-contract.js';
import { FIXTURES } from './test-server.js';

/**
 * The production app factory over stores whose quota backend and readiness cannot be reached (a
 * known key in memory, so requests get as far as the quota): what every 503 of the API answers.
 * `get(url)`: an authenticated GET of it, as the contract checks read an answer.
 */
export async function appWithBackendDown(t: TestContext): Promise<{ get: (url: string) => Promise<Answer> }> {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const key = generateApiKey();
  await stores.keys.create('test', hashApiKey(key), new Date());
  const tracked = new TrackedCurrencies(loadConfig({}).currencies);
  const keys = new KeyCache(stores.keys);
  await keys.refresh();
  const down = () => Promise.reject(new StoreUnavailableError('test: backend down'));
  const app = buildApp({
    config: loadConfig({}),
    tracked,
    view: new RatesView(stores.rates, tracked),
    sources: [],
    keys,
    quota: { consume: down, usage: down },
    readiness: { ping: down },
    logger: pino({ level: 'silent' }),
    webFiles: loadWebFiles(`${FIXTURES}web-page/`),
  });
  t.after(() => app.close());
  return {
    get: async (url) => {
      const injected = await app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      return { status: injected.statusCode, text: injected.body, headers: new Headers(injected.headers as Record<string, string>) };
    },
  };
}
