import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AmountNotPositiveError } from '../../src/domain/errors.js';
import { decimal, positiveAmount, rateChange, ratio, ratioRounded, ScaleFactor, scaledBy, scaleRounded } from '../../src/domain/money.js';
import { divide, formatHalfUp6, multiply, parseDecimal, subtract } from '../helpers/oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

const expected = (value: string, numerator: string, denominator: string) =>
  formatHalfUp6(divide(multiply(parseDecimal(value), parseDecimal(numerator)), parseDecimal(denominator)));

/** A decimal string with up to `maxWhole` integer and `maxFraction` fractional digits. */
function decimalText(random: () => number, maxWhole: number, maxFraction: number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const whole = digits(1 + Math.floor(random() * maxWhole));
  const fractionLength = Math.floor(random() * (maxFraction + 1));
  return fractionLength === 0 ? whole : `${whole}.${digits(fractionLength)}`;
}

/** Factors of random decimal ratios (a zero denominator skipped), with the texts they were made from. */
function* randomFactors(random: () => number, count: number) {
  for (let i = 0; i < count; i++) {
    const numerator = decimalText(random, 6, 6);
    const denominator = decimalText(random, 6, 6);
    if (decimal(denominator).units !== 0n) yield { numerator, denominator, factor: new ScaleFactor(ratio(decimal(numerator), decimal(denominator))) };
  }
}

/** Scaling `value` by `factor` gives `want`. */
function assertScaled(value: string, numerator: string, denominator: string, factor: ScaleFactor, want: string): void {
  assert.equal(scaledBy(decimal(value), factor), want, `${value} × ${numerator} / ${denominator}`);
}

test('when values are scaled by a prepared factor, then every result equals the exact product rounded once half-up', () => {
  const random = seededRandom(20261122);
  for (const { numerator, denominator, factor } of randomFactors(random, 5000)) {
    // The same factor twice, at several amount scales: its terms are remembered per scale.
    for (let j = 0; j < 3; j++) {
      const sign = random() < 0.2 ? '-' : '';
      const value = sign + decimalText(random, 9, 4);
      const want = expected(value, numerator, denominator);
      assertScaled(value, numerator, denominator, factor, want);
      assertScaled(value, numerator, denominator, factor, want);
      assert.equal(scaleRounded(decimal(value), decimal(numerator), decimal(denominator)), want);
    }
  }
});

test('when amounts carry many decimals, kept and not kept per scale, then results still equal the exact product rounded once', () => {
  // A factor keeps its reduced terms for amounts of up to 12 decimals and works unreduced past them.
  const random = seededRandom(20261124);
  for (const { numerator, denominator, factor } of randomFactors(random, 500)) {
    for (const places of [10, 12, 13, 16]) {
      const value = `${decimalText(random, 7, 0)}.${decimalText(random, places, 0).padStart(places, '0').slice(0, places)}`;
      assertScaled(value, numerator, denominator, factor, expected(value, numerator, denominator));
    }
  }
});

test('when a result lies exactly halfway between two millionths, then it rounds away from zero', () => {
  const cases: [string, string, string, string][] = [
    ['0.0000005', '1', '1', '0.000001'],
    ['0.0000025', '1', '1', '0.000003'],
    ['0.00000049', '1', '1', '0.000000'],
    ['0.125', '0.87058', '1', '0.108823'],
    ['1', '1', '8000000', '0.000000'], // 0.000000125: below half
    ['1', '1', '2000000', '0.000001'], // 0.0000005: exactly half
    ['3', '1', '2000000', '0.000002'], // 0.0000015
    ['-0.0000005', '1', '1', '-0.000001'],
    ['-0.00000049', '1', '1', '0.000000'],
    ['-2.5', '1', '1', '-2.500000'],
  ];
  for (const [value, numerator, denominator, want] of cases) {
    assert.equal(expected(value, numerator, denominator), want, `the oracle agrees on ${value} × ${numerator} / ${denominator}`);
    assertScaled(value, numerator, denominator, new ScaleFactor(ratio(decimal(numerator), decimal(denominator))), want);
  }
});

test('when an amount is zero or negative, then positiveAmount refuses it; when positive, then it is parsed exactly', () => {
  for (const text of ['0', '0.00', '-2', '-0.000001', '+0', '.0']) assert.throws(() => positiveAmount(text), AmountNotPositiveError, text);
  assert.deepEqual(positiveAmount('+12.50'), { units: 1250n, scale: 2 });
  assert.deepEqual(positiveAmount('.5'), { units: 5n, scale: 1 });
});

test('when a rate moves between two days, then change and change_pct come from the exact rates, rounded once', () => {
  const random = seededRandom(20261126);
  for (let i = 0; i < 3000; i++) {
    const [a, b, c, d] = Array.from({ length: 4 }, () => decimalText(random, 5, 6)).map((text) => (decimal(text).units === 0n ? '1' : text)) as [string, string, string, string];
    // The rate of one currency in another on two days: a/b, then c/d.
    const start = divide(parseDecimal(a), parseDecimal(b));
    const end = divide(parseDecimal(c), parseDecimal(d));
    const difference = subtract(end, start);
    const { change, changePct } = rateChange(ratio(decimal(a), decimal(b)), ratio(decimal(c), decimal(d)));
    assert.equal(change, formatHalfUp6(difference), `${c}/${d} − ${a}/${b}`);
    assert.equal(changePct, formatHalfUp6(multiply(divide(difference, start), { num: 100n, den: 1n })), `% of ${c}/${d} − ${a}/${b}`);
    assert.equal(ratioRounded(decimal(a), decimal(b)), formatHalfUp6(start));
  }
});

test('when a change rounds to zero from below, then it is "0.000000", never "-0.000000"; a negative half rounds away from zero', () => {
  assert.deepEqual(rateChange(ratio(decimal('1.0000004'), decimal('1')), ratio(decimal('1'), decimal('1'))), { change: '0.000000', changePct: '-0.000040' });
  assert.deepEqual(rateChange(ratio(decimal('100000000.4'), decimal('1')), ratio(decimal('100000000'), decimal('1'))), { change: '-0.400000', changePct: '0.000000' });
  assert.deepEqual(rateChange(ratio(decimal('1.0000005'), decimal('1')), ratio(decimal('1'), decimal('1'))), { change: '-0.000001', changePct: '-0.000050' });
  assert.deepEqual(rateChange(ratio(decimal('2'), decimal('1')), ratio(decimal('2'), decimal('1'))), { change: '0.000000', changePct: '0.000000' });
});
