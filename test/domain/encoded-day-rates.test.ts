import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { EncodedDayRates } from '../../src/domain/day-encoding.js';
import { decodeDayRates } from '../helpers/decoded-day.js';

/**
 * A stored day read in place (day-encoding.ts) answers as its decoded map would: the same values,
 * the same codes in the same order, the codes not kept left out, whatever the text around a code.
 */
const keepAllBut = (left: ReadonlySet<string>) => (code: string) => !left.has(code);

function assertSameAsDecoded(encoded: string, keep: (code: string) => boolean, asked: readonly string[]): void {
  const decoded = decodeDayRates(encoded, keep);
  const inPlace = new EncodedDayRates(encoded, keep);
  assert.deepEqual([...inPlace], [...decoded]);
  assert.deepEqual([...inPlace.keys()], [...decoded.keys()]);
  assert.deepEqual([...inPlace.values()], [...decoded.values()]);
  assert.equal(inPlace.size, decoded.size);
  for (const code of asked) {
    assert.equal(inPlace.get(code), decoded.get(code), `get(${code}) of ${encoded}`);
    assert.equal(inPlace.has(code), decoded.has(code), `has(${code}) of ${encoded}`);
  }
}

test('when a day is read in place, then each code gives what the decoded day gives, first, middle, last, absent and left out', () => {
  const encoded = 'USD=1.1684;JPY=186.75;GBP=0.87053;SEK=10.9';
  assertSameAsDecoded(encoded, () => true, ['USD', 'JPY', 'GBP', 'SEK', 'CHF', 'EUR', 'US', 'USD=', '']);
  assertSameAsDecoded(encoded, keepAllBut(new Set(['JPY', 'SEK'])), ['USD', 'JPY', 'GBP', 'SEK']);
  assert.equal(new EncodedDayRates(encoded, () => true).get('SEK'), '10.9');
  assert.equal(new EncodedDayRates('', () => true).get('USD'), undefined);
  const seen: string[] = [];
  new EncodedDayRates(encoded, keepAllBut(new Set(['GBP']))).forEach((value, code) => seen.push(`${code} ${value}`));
  assert.deepEqual(seen, ['USD 1.1684', 'JPY 186.75', 'SEK 10.9']);
});

test('when codes share letters, then each is found at its own pair, and a part of one is no code', () => {
  assertSameAsDecoded('XAB=1;ABC=2;BCX=3', () => true, ['XAB', 'ABC', 'BCX', 'BCD', 'CX=']);
  assertSameAsDecoded('AAB=1;AAA=2', () => true, ['AAA', 'AAB', 'ABA']);
});

test('when any day of codes and decimals is encoded, then reading it in place equals decoding it', () => {
  const code = fc.stringMatching(/^[A-E]{3}$/);
  const value = fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,6})?$/);
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(code, value), { selector: ([c]) => c, maxLength: 12 }), fc.uniqueArray(code, { maxLength: 3 }), code, (pairs, left, asked) => {
      const encoded = pairs.map(([c, v]) => `${c}=${v}`).join(';');
      assertSameAsDecoded(encoded, keepAllBut(new Set(left)), [asked, ...pairs.map(([c]) => c)]);
    }),
  );
});
