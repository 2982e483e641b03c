import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { DEFAULT_TRACKED } from '../../src/domain/currencies.js';
import { decimal, ONE, ScaleFactor, scaledBy } from '../../src/domain/money.js';
import { conversionPlan, type BulkConversion, type Conversion, type ConversionPlan } from '../../src/domain/rate-queries.js';
import { bulkAnswer, conversionAnswer, MAX_AMOUNT_IN_ETAG } from '../../src/http/conversion-answers.js';
import { render } from '../../src/http/response-cache.js';
import { fullHistoryView } from '../helpers/full-history-view.js';
import { seededRandom } from '../helpers/seeded-random.js';

const sha1Tag = (text: string) => `"${createHash('sha1').update(text, 'utf8').digest('base64url')}"`;
/** A derived ETag: a 27-character base64url tag, a point, the amount as sent. */
const DERIVED = /^"[A-Za-z0-9_-]{27}\.([+-]?[0-9.]+)"$/;

function variedAmounts(random: () => number, count: number): string[] {
  const amounts = ['1', '0.000001', '+5', '-3', '123456789012345678901234567890.123456789', '.5', '99999.999999', '0.0000004', '7.1234565'];
  for (let i = 0; i < count; i++) {
    amounts.push(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 12)))}.${String(Math.floor(random() * 10 ** 8)).padStart(8, '0')}`);
  }
  return amounts;
}

test('when bulk answers are written from a plan, then the bytes equal JSON.stringify of the plain conversion, for varied amounts, bases and target lists', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const random = seededRandom(20261122);
  const pick = () => DEFAULT_TRACKED[Math.floor(random() * DEFAULT_TRACKED.length)]!;
  const amounts = variedAmounts(random, 300);
  for (const [i, amount] of amounts.entries()) {
    const from = i % 3 === 0 ? pick().toLowerCase() : pick();
    const to = Array.from({ length: 1 + Math.floor(random() * 25) }, () => (random() < 0.2 ? pick().toLowerCase() : pick())).join(',');
    const plan = conversionPlan(view.snapshot, tracked, from, to);
    const plain: BulkConversion = {
      from: plan.from,
      amount,
      date: plan.date,
      conversions: plan.targets.map(({ to: code, rate, factor }) => ({ to: code, result: scaledBy(decimal(amount), factor), rate })),
    };
    assert.equal(bulkAnswer(plan, amount).text, JSON.stringify(plain), `${from} ${amount} ${to}`);
    // The same question again comes from the remembered plan.
    assert.equal(bulkAnswer(conversionPlan(view.snapshot, tracked, from, to), amount).text, JSON.stringify(plain));
  }
});

test('when single conversions are written from a plan, then the bytes equal JSON.stringify of the plain conversion, ASCII, for varied pairs and amounts', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const random = seededRandom(20261123);
  const pick = () => DEFAULT_TRACKED[Math.floor(random() * DEFAULT_TRACKED.length)]!;
  for (const [i, amount] of variedAmounts(random, 500).entries()) {
    const from = i % 3 === 0 ? pick().toLowerCase() : pick();
    const to = i % 5 === 0 ? pick().toLowerCase() : pick();
    const plan = conversionPlan(view.snapshot, tracked, from, to);
    const [{ to: code, rate, factor }] = plan.targets as [ConversionPlan['targets'][number]];
    const plain: Conversion = { from: plan.from, to: code, amount, result: scaledBy(decimal(amount), factor), rate, date: plan.date };
    const { text } = conversionAnswer(plan, amount);
    assert.equal(text, JSON.stringify(plain), `${from} ${to} ${amount}`);
    assert.equal(Buffer.byteLength(text), text.length, 'ASCII, as Json text must be');
  }
});

test('when a conversion question is asked again, then its plan is the one remembered; after 10,000 other questions it is prepared afresh, equal to the first', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const first = conversionPlan(view.snapshot, tracked, 'GBP', 'USD,jpy');
  assert.equal(conversionPlan(view.snapshot, tracked, 'GBP', 'USD,jpy'), first);
  // Asked with other letters, it is another question (its own plan, the same content).
  const asked = conversionPlan(view.snapshot, tracked, 'gbp', 'USD,jpy');
  assert.notEqual(asked, first);
  assert.deepEqual(asked, first);
  const codes = DEFAULT_TRACKED;
  const n = codes.length;
  for (let i = 0; i < 10_000; i++) conversionPlan(view.snapshot, tracked, 'GBP', `${codes[i % n]},${codes[Math.floor(i / n) % n]},${codes[Math.floor(i / n / n) % n]}`);
  const again = conversionPlan(view.snapshot, tracked, 'GBP', 'USD,jpy');
  assert.notEqual(again, first);
  assert.deepEqual(again, first);
  // An answer from the new plan is the same bytes, so it keeps its ETag: a client's 304 still holds.
  assert.deepEqual(render(bulkAnswer(again, '12.5')), render(bulkAnswer(first, '12.5')));
});

test('when conversion answers are rendered, then their ETags are derived: one per body, the same for the same bytes, different for different bytes', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const bulk = conversionPlan(view.snapshot, tracked, 'GBP', DEFAULT_TRACKED.join(','));
  const single = conversionPlan(view.snapshot, tracked, 'USD', 'JPY');
  const answers = new Map<string, string>();
  const amounts = ['1', '1.0', '+1', '.5', '0.5', '1234.5', '99999999999.999999', '5'.repeat(MAX_AMOUNT_IN_ETAG)];
  for (const [kind, answer] of [
    ['bulk', (amount: string) => render(bulkAnswer(bulk, amount))],
    ['single', (amount: string) => render(conversionAnswer(single, amount))],
    // The single pair's plan also answers a bulk question with one target: a different body.
    ['bulk of one', (amount: string) => render(bulkAnswer(single, amount))],
  ] as const) {
    for (const amount of amounts) {
      const body = answer(amount);
      assert.equal(body.etag.match(DERIVED)?.[1], amount, `${kind} ${amount}: ${body.etag}`);
      assert.equal(answer(amount).etag, body.etag, 'the same bytes, the same ETag');
      assert.equal(body.encoding, 'latin1');
      assert.equal(body.byteLength, Buffer.byteLength(body.text));
      assert.ok(!answers.has(body.etag), `${kind} ${amount}: one ETag per body`);
      answers.set(body.etag, body.text);
    }
  }
  assert.equal(new Set(answers.values()).size, answers.size, 'different bytes, different ETags');
  // Past the limit, the ETag is the SHA-1 of the bytes, as for every other answer.
  const long = `1${'0'.repeat(MAX_AMOUNT_IN_ETAG)}`;
  for (const body of [render(bulkAnswer(bulk, long)), render(conversionAnswer(single, long))]) assert.equal(body.etag, sha1Tag(body.text));
});

test('when two plans write the same text around their results but scale by different exact factors, then their answers and ETags differ', () => {
  // Both show the rate 1.200000; the second scales by 1.2000001, which a large amount reveals.
  const plan = (numerator: string): ConversionPlan => ({ from: 'GBP', date: '2026-04-13', targets: [{ to: 'USD', rate: '1.200000', factor: new ScaleFactor(decimal(numerator), ONE) }] });
  const [exact, corrected] = [plan('1.2'), plan('1.2000001')];
  const [a, b] = [render(conversionAnswer(exact, '1000000')), render(conversionAnswer(corrected, '1000000'))];
  assert.equal(a.text, '{"from":"GBP","to":"USD","amount":"1000000","result":"1200000.000000","rate":"1.200000","date":"2026-04-13"}');
  assert.equal(b.text, '{"from":"GBP","to":"USD","amount":"1000000","result":"1200000.100000","rate":"1.200000","date":"2026-04-13"}');
  assert.notEqual(a.etag, b.etag);
  // A small amount gives the same bytes from both, under different (still valid) ETags.
  assert.equal(render(conversionAnswer(exact, '1')).text, render(conversionAnswer(corrected, '1')).text);
});
