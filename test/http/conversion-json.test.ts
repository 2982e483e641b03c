import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_TRACKED } from '../../src/domain/currencies.js';
import { convert } from '../../src/domain/rate-queries.js';
import { conversionJson } from '../../src/http/conversion-json.js';
import { fullHistoryView } from '../helpers/full-history-view.js';
import { seededRandom } from '../helpers/seeded-random.js';

test('when conversions are written, then the text equals JSON.stringify of the conversion, for varied pairs and amounts', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const random = seededRandom(20261123);
  const pick = () => DEFAULT_TRACKED[Math.floor(random() * DEFAULT_TRACKED.length)]!;
  const amounts = ['1', '0.000001', '+5', '-3', '123456789012345678901234567890.123456789', '.5', '99999.999999', '0.0000004', '7.1234565'];
  for (let i = 0; i < 500; i++) {
    amounts.push(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 12)))}.${String(Math.floor(random() * 10 ** 8)).padStart(8, '0')}`);
  }
  for (const [i, amount] of amounts.entries()) {
    const from = i % 3 === 0 ? pick().toLowerCase() : pick();
    const to = i % 5 === 0 ? pick().toLowerCase() : pick();
    const conversion = convert(view.snapshot, tracked, { from, to, amount });
    const text = conversionJson(conversion);
    assert.equal(text, JSON.stringify(conversion), `${from} ${to} ${amount}`);
    assert.equal(Buffer.byteLength(text), text.length, 'ASCII, as Json text must be');
  }
});

test('when a field would need an escape, then it is escaped as JSON.stringify escapes it', () => {
  const odd = { from: 'A"B', to: 'C\\D', amount: '1\n', result: '\u0001', rate: '\u00e9', date: '\ud800' };
  assert.equal(conversionJson(odd), JSON.stringify(odd));
});
