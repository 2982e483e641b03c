/**
 * `npm run openapi`: writes the OpenAPI document the server serves at /api/v1/openapi.json to
 * `openapi.json` at the repository root, pretty-printed, so changes to the API show in review.
 * `--check` writes nothing and exits 1 when the file is out of date.
 *
 * The document comes from the production app factory over an in-memory store; it does not depend
 * on the environment (the defaults are used whatever is set), so every run writes the same bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { TrackedCurrencies } from '../src/domain/currencies.js';
import { OPENAPI_PATH } from '../src/http/openapi/docs-paths.js';
import { KeyCache } from '../src/live/key-cache.js';
import { RatesView } from '../src/live/rates-view.js';
import { openStores } from '../src/storage/open-stores.js';

const TARGET = new URL('../../openapi.json', import.meta.url);

export async function renderOpenApiDocument(): Promise<string> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
  const stores = await openStores(config.databaseUrl);
  const tracked = new TrackedCurrencies(config.currencies);
  const app = buildApp({
    config,
    tracked,
    view: new RatesView(stores.rates, tracked),
    sources: [],
    keys: new KeyCache(stores.keys),
    quota: stores.quota,
    readiness: stores,
    logger: false,
  });
  try {
    const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
    if (response.statusCode !== 200) throw new Error(`${OPENAPI_PATH} answered ${response.statusCode}`);
    return `${JSON.stringify(JSON.parse(response.body), null, 2)}\n`;
  } finally {
    await app.close();
    await stores.close();
  }
}

async function main(args: string[]): Promise<void> {
  const document = await renderOpenApiDocument();
  if (args.includes('--check')) {
    const current = await readFile(TARGET, 'utf8').catch(() => '');
    if (current !== document) {
      console.error('openapi.json is out of date: run "npm run openapi"');
      process.exitCode = 1;
    }
    return;
  }
  await writeFile(TARGET, document);
  console.log(`wrote ${TARGET.pathname} (${Buffer.byteLength(document)} bytes)`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
