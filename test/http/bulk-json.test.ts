import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_TRACKED, TrackedCurrencies } from '../../src/domain/currencies.js';
import { bulkPlan, convertBulk } from '../../src/domain/rate-queries.js';
import { bulkJson } from '../../src/http/bulk-json.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { RatesView } from '../../src/live/rates-view.js';
import { openStores } from '../../src/storage/open-stores.js';
import { SHARED_DATA } from '../helpers/test-server.js';

/** A repeatable stream of numbers in [0, 1): the cases are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

test('when bulk answers are rendered from a plan, then the bytes equal JSON.stringify of the plain conversion, for varied amounts, bases and target lists', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  await runIngestion(stores.rates, { file: `${SHARED_DATA}eurofxref-hist.zip` });
  const tracked = new TrackedCurrencies(DEFAULT_TRACKED);
  const view = new RatesView(stores.rates, tracked);
  await view.refresh();
  const random = seeded(20261122);
  const pick = () => DEFAULT_TRACKED[Math.floor(random() * DEFAULT_TRACKED.length)]!;
  const amounts = ['1', '0.000001', '+5', '123456789012345678901234567890.123456789', '.5', '99999.999999', '0.0000004', '7.1234565'];
  for (let i = 0; i < 300; i++) {
    amounts.push(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 12)))}.${String(Math.floor(random() * 10 ** 8)).padStart(8, '0')}`);
  }
  let compared = 0;
  for (const [i, amount] of amounts.entries()) {
    const from = i % 3 === 0 ? pick().toLowerCase() : pick();
    const to = Array.from({ length: 1 + Math.floor(random() * 25) }, () => (random() < 0.2 ? pick().toLowerCase() : pick()));
    const plain = JSON.stringify(convertBulk(view.snapshot, tracked, { from, amount, to }));
    assert.equal(bulkJson(bulkPlan(view.snapshot, tracked, from, to), amount), plain, `${from} ${amount} ${to.join(',')}`);
    // The same question again comes from the remembered plan.
    assert.equal(bulkJson(bulkPlan(view.snapshot, tracked, from, to), amount), plain);
    compared++;
  }
  assert.equal(compared, amounts.length);
});
