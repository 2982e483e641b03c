import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import { openStores } from '../../src/storage/open-stores.js';
import { startLoggedServer } from '../helpers/logged-server.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { FIXTURES, tempDir } from '../helpers/test-server.js';

/**
 * INGEST_ON_EMPTY (docs/operations.md): the ECB feed is fetched at start when nothing of the ECB
 * is stored and the ECB is enabled, whatever the other banks' stored days. No network is needed:
 * only whether the start asks for the feed is looked at.
 */
const FETCHING = /^no ecb rates stored yet: fetching https:\/\/www\.ecb\.europa\.eu\//;

async function storeWith(t: TestContext, what: { ecb?: boolean; nbp?: boolean }): Promise<string> {
  const file = join(tempDir(t), 'rates.db');
  const stores = await openStores(`sqlite:${file}`);
  try {
    if (what.ecb) await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
    if (what.nbp) await runIngestion(stores.rates, sourceAdapter('nbp')!, { file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) });
  } finally {
    await stores.close();
  }
  return `sqlite:${file}`;
}

const fetchedAtStart = async (t: TestContext, databaseUrl: string, sources: string) => {
  const { lines } = await startLoggedServer(t, { DATABASE_URL: databaseUrl, SOURCES: sources, INGEST_ON_EMPTY: 'ecb-daily' });
  return lines.some((line) => FETCHING.test(line.msg));
};

test("when the ECB is enabled and none of its days is stored, then its feed is fetched at start, though another bank's days are stored", async (t) => {
  assert.equal(await fetchedAtStart(t, await storeWith(t, { nbp: true }), 'ecb,nbp'), true);
});

test("when the ECB's days are stored, or the ECB is not enabled, then nothing is fetched at start", async (t) => {
  assert.equal(await fetchedAtStart(t, await storeWith(t, { ecb: true }), 'ecb,nbp'), false);
  assert.equal(await fetchedAtStart(t, await storeWith(t, {}), 'nbp'), false);
});
