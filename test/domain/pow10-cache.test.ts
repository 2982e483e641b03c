import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { decimal, ratio, ScaleFactor, scaledBy, scaleRounded } from '../../src/domain/money.js';
import { divide, formatHalfUp6, multiply, parseDecimal } from '../helpers/oracle.js';

/**
 * Powers of ten are kept only for the small exponents money needs; a value with a long fraction
 * (whatever let it through) gets its power computed, exact, and not remembered.
 */

const expected = (value: string, numerator: string, denominator: string) =>
  formatHalfUp6(divide(multiply(parseDecimal(value), parseDecimal(numerator)), parseDecimal(denominator)));

/** A collection now (the flag is set at run time: the test runner starts node without it). */
const collect: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** `length` digits, not all the same, starting with `first`. */
const digits = (length: number, first = '1') => first + Array.from({ length: length - 1 }, (_, i) => String((i * 7 + 3) % 10)).join('');

test('when values with 40-digit fractions are scaled, then the results are exact, rounded once half-up', () => {
  const cases: [value: string, numerator: string, denominator: string][] = [
    [`0.${digits(40)}`, '186.75', '1.1684'],
    [`12345.${digits(40, '9')}`, '0.87058', '366.9'],
    [`-0.${'0'.repeat(33)}5000000`, '1', '1'],
    [`0.${'0'.repeat(6)}${'4'.repeat(33)}5`, '1', '1'],
    [`0.${digits(40)}`, `1.${digits(40, '2')}`, `0.${digits(40, '7')}`],
  ];
  for (const [value, numerator, denominator] of cases) {
    const want = expected(value, numerator, denominator);
    assert.equal(scaledBy(decimal(value), new ScaleFactor(ratio(decimal(numerator), decimal(denominator)))), want, `${value} × ${numerator} / ${denominator}`);
    assert.equal(scaleRounded(decimal(value), decimal(numerator), decimal(denominator)), want);
  }
});

test('when a value with a 20,000-digit fraction is scaled, then the result is exact and no table of powers of ten is kept afterwards', () => {
  const factor = new ScaleFactor(ratio(decimal('186.75'), decimal('1.1684')));
  scaledBy(decimal('1.5'), factor); // warm up: whatever small powers money needs are made now
  const value = `3.${digits(20_000)}`;
  const want = expected(value, '186.75', '1.1684');

  const before = heapAfterCollection();
  assert.equal(scaledBy(decimal(value), factor), want);
  assert.equal(scaleRounded(decimal(value), decimal('1'), decimal(`1.${digits(20_000, '4')}`)), expected(value, '1', `1.${digits(20_000, '4')}`));
  const grown = heapAfterCollection() - before;
  // Keeping 10^0 … 10^20000 would hold about 83 MB; the value itself is a few KB.
  assert.ok(grown < 8 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MB after the scaling (bound 8 MB)`);
});
