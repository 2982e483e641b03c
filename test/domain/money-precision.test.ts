import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimal, rateChange, ratio, roundedRatio, scaledRounded } from '../../src/domain/money.js';
import { divide, formatHalfUp, multiply, parseDecimal, subtract, type Rational } from '../helpers/oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** DECISIONS §15: any precision from 0 to 12 rounds once, half away from zero, from the exact value. */

const asRatio = (value: Rational) => ({ num: value.num, den: value.den });

test('when ratios are rounded to each precision, then each equals the exact value rounded once half-up', () => {
  const random = seededRandom(15);
  for (let i = 0; i < 300; i++) {
    const a = `${Math.floor(random() * 1e6)}.${Math.floor(random() * 1e4)}`;
    const b = `${1 + Math.floor(random() * 1e5)}.${Math.floor(random() * 1e3)}`;
    const places = i % 13;
    assert.equal(roundedRatio(ratio(decimal(a), decimal(b)), places), formatHalfUp(divide(parseDecimal(a), parseDecimal(b)), places), `${a}/${b} at ${places}`);
  }
});

test('when a value is a tie at 0 or 12 places, then it rounds away from zero; 0 places prints no point and never -0', () => {
  assert.equal(roundedRatio({ num: 5n, den: 2n }, 0), '3');
  assert.equal(roundedRatio({ num: -5n, den: 2n }, 0), '-3');
  assert.equal(roundedRatio({ num: -4n, den: 10n }, 0), '0');
  assert.equal(roundedRatio({ num: 11n, den: 10n }, 0), '1');
  assert.equal(roundedRatio({ num: 1n, den: 2n * 10n ** 12n }, 12), '0.000000000001');
  assert.equal(roundedRatio({ num: -1n, den: 3n * 10n ** 12n }, 12), '0.000000000000');
  assert.equal(roundedRatio({ num: 1n, den: 1n }, 12), '1.000000000000');
});

test('when an amount is scaled at a precision, then the result comes from the exact factor, rounded once', () => {
  const factor = divide(parseDecimal('186.75'), parseDecimal('17160.65'));
  for (const amount of ['1', '0.5', '1234567.891', '250.50', '.000001']) {
    for (const places of [0, 2, 10, 12]) {
      assert.equal(scaledRounded(decimal(amount), asRatio(factor), places), formatHalfUp(multiply(parseDecimal(amount), factor), places), `${amount} at ${places}`);
    }
  }
});

test('when a rate moves, then change and change_pct at a precision come from the exact rates', () => {
  const start = divide(parseDecimal('1.0497'), parseDecimal('17160.65'));
  const end = divide(parseDecimal('1.0466'), parseDecimal('17044.56'));
  for (const places of [0, 2, 10, 12]) {
    const change = subtract(end, start);
    assert.deepEqual(rateChange(asRatio(start), asRatio(end), places), {
      change: formatHalfUp(change, places),
      changePct: formatHalfUp(multiply(divide(change, start), { num: 100n, den: 1n }), places),
    });
  }
});
