import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { DEFAULT_TRACKED } from '../../src/domain/currencies.js';
import { decimal, scaledBy } from '../../src/domain/money.js';
import { bulkPlan, type BulkConversion } from '../../src/domain/rate-queries.js';
import { bulkJson } from '../../src/http/bulk-json.js';
import { Json, render } from '../../src/http/response-cache.js';
import { fullHistoryView } from '../helpers/full-history-view.js';
import { seededRandom } from '../helpers/seeded-random.js';

test('when bulk answers are rendered from a plan, then the bytes equal JSON.stringify of the plain conversion, for varied amounts, bases and target lists', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const random = seededRandom(20261122);
  const pick = () => DEFAULT_TRACKED[Math.floor(random() * DEFAULT_TRACKED.length)]!;
  const amounts = ['1', '0.000001', '+5', '123456789012345678901234567890.123456789', '.5', '99999.999999', '0.0000004', '7.1234565'];
  for (let i = 0; i < 300; i++) {
    amounts.push(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 12)))}.${String(Math.floor(random() * 10 ** 8)).padStart(8, '0')}`);
  }
  let compared = 0;
  for (const [i, amount] of amounts.entries()) {
    const from = i % 3 === 0 ? pick().toLowerCase() : pick();
    const to = Array.from({ length: 1 + Math.floor(random() * 25) }, () => (random() < 0.2 ? pick().toLowerCase() : pick())).join(',');
    const plan = bulkPlan(view.snapshot, tracked, from, to);
    const plain: BulkConversion = {
      from: plan.from,
      amount,
      date: plan.date,
      conversions: plan.targets.map(({ to: code, rate, factor }) => ({ to: code, result: scaledBy(decimal(amount), factor), rate })),
    };
    assert.equal(bulkJson(plan, amount), JSON.stringify(plain), `${from} ${amount} ${to}`);
    // The same question again comes from the remembered plan.
    assert.equal(bulkJson(bulkPlan(view.snapshot, tracked, from, to), amount), JSON.stringify(plain));
    compared++;
  }
  assert.equal(compared, amounts.length);
});

test('when a bulk question is asked again, then its plan is the one remembered; after 10,000 other questions it is prepared afresh, equal to the first', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const first = bulkPlan(view.snapshot, tracked, 'GBP', 'USD,jpy');
  assert.equal(bulkPlan(view.snapshot, tracked, 'GBP', 'USD,jpy'), first);
  // Asked with other letters, it is another question (its own plan, the same content).
  const asked = bulkPlan(view.snapshot, tracked, 'gbp', 'USD,jpy');
  assert.notEqual(asked, first);
  assert.deepEqual(asked, first);
  const codes = DEFAULT_TRACKED;
  const n = codes.length;
  for (let i = 0; i < 10_000; i++) bulkPlan(view.snapshot, tracked, 'GBP', `${codes[i % n]},${codes[Math.floor(i / n) % n]},${codes[Math.floor(i / n / n) % n]}`);
  const again = bulkPlan(view.snapshot, tracked, 'GBP', 'USD,jpy');
  assert.notEqual(again, first);
  assert.deepEqual(again, first);
});

test('when a bulk answer is rendered, then it is sent as the UTF-8 bytes of its JSON and its ETag is their SHA-1', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const json = bulkJson(bulkPlan(view.snapshot, tracked, 'GBP', DEFAULT_TRACKED.join(',')), '1234.5');
  const body = render(new Json(json));
  assert.equal(body.text, json);
  assert.equal(body.encoding, 'latin1');
  assert.deepEqual(Buffer.from(body.text, body.encoding), Buffer.from(json, 'utf8'));
  assert.equal(body.byteLength, Buffer.byteLength(json, 'utf8'));
  assert.equal(body.etag, `"${createHash('sha1').update(json, 'utf8').digest('base64url')}"`);
});
