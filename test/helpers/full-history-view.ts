import type { TestContext } from 'node:test';
import { DEFAULT_TRACKED, TrackedCurrencies } from '../../src/domain/currencies.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { RatesView } from '../../src/live/rates-view.js';
import { openStores } from '../../src/storage/open-stores.js';
import { HISTORY_ZIP } from './ecb-history-csv.js';

/** The real ECB history in an in-memory store, loaded into a snapshot as a server holds it. */
export async function fullHistoryView(t: TestContext): Promise<{ view: RatesView; tracked: TrackedCurrencies }> {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  await runIngestion(stores.rates, ecb, { file: HISTORY_ZIP });
  const tracked = new TrackedCurrencies(DEFAULT_TRACKED);
  const view = new RatesView(stores.rates, tracked);
  await view.refresh();
  return { view, tracked };
}
