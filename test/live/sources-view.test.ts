import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourcesView } from '../../src/live/sources-view.js';
import { openStores } from '../../src/storage/open-stores.js';
import type { RatesStore, SourceRatesStore } from '../../src/storage/ports.js';

const NBP = { id: 'nbp', name: 'NBP', base: 'PLN', url: 'https://nbp.example/' };
const ECB = { id: 'ecb', name: 'ECB', base: 'EUR', url: 'https://ecb.example/' };

/** The store with its summary() calls counted. */
function counted<T extends RatesStore | SourceRatesStore>(store: T): { store: T; summaries: () => number } {
  let calls = 0;
  const wrapped = Object.create(store) as T;
  wrapped.summary = (async () => {
    calls++;
    return store.summary();
  }) as T['summary'];
  return { store: wrapped, summaries: () => calls };
}

test('when the stores have not moved, then a refresh reads no summary; when one moved, only its summary is read again', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const rates = counted(stores.rates);
  const sourceRates = counted(stores.sourceRates);
  const view = new SourcesView({ rates: rates.store, sourceRates: sourceRates.store }, [NBP, ECB]);
  assert.deepEqual(view.statuses, [
    { ...NBP, codes: [], firstDay: null, lastDay: null },
    { ...ECB, codes: [], firstDay: null, lastDay: null },
  ]);
  assert.equal(await view.refresh(), true, 'the first refresh loads');
  assert.equal(await view.refresh(), false);
  assert.deepEqual([rates.summaries(), sourceRates.summaries()], [1, 1]);

  await stores.sourceRates.merge('nbp', [{ date: '2026-03-02', currency: 'USD', value: '3.6056' }]);
  assert.equal(await view.refresh(), true);
  assert.deepEqual([rates.summaries(), sourceRates.summaries()], [1, 2]);
  assert.deepEqual(view.statuses[0], { ...NBP, codes: ['USD'], firstDay: '2026-03-02', lastDay: '2026-03-02' });

  await stores.rates.merge([{ date: '2026-03-02', currency: 'USD', rate: '1.17' }]);
  assert.equal(await view.refresh(), true);
  assert.equal(await view.refresh(), false);
  assert.deepEqual([rates.summaries(), sourceRates.summaries()], [2, 2]);
  assert.deepEqual(view.statuses[1], { ...ECB, codes: ['USD'], firstDay: '2026-03-02', lastDay: '2026-03-02' });
});

test('when the ECB is not enabled, then its store is never read, and the other way round', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const rates = counted(stores.rates);
  const sourceRates = counted(stores.sourceRates);
  await new SourcesView({ rates: rates.store, sourceRates: sourceRates.store }, [NBP]).refresh();
  await new SourcesView({ rates: rates.store, sourceRates: sourceRates.store }, [ECB]).refresh();
  assert.deepEqual([rates.summaries(), sourceRates.summaries()], [1, 1]);
});
