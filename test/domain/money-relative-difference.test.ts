import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimal, differsByMorePct, ratio, relativeDifferencePct } from '../../src/domain/money.js';
import { divide, formatHalfUp6, multiply, parseDecimal, subtract } from '../helpers/oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** (b − a) / a × 100 by the BigInt oracle, from the four decimals of a = an/ad and b = bn/bd. */
function oracle(an: string, ad: string, bn: string, bd: string): string {
  const a = divide(parseDecimal(an), parseDecimal(ad));
  const b = divide(parseDecimal(bn), parseDecimal(bd));
  return formatHalfUp6(multiply(divide(subtract(b, a), a), parseDecimal('100')));
}

test('when two exact rates are compared, then the relative difference in percent is rounded once, half away from zero', () => {
  const cases: [string, string, string, string, string][] = [
    ['1.1628', '1', '4.2679', '3.6697', oracle('1.1628', '1', '4.2679', '3.6697')],
    ['2', '1', '3', '1', '50.000000'],
    ['3', '1', '2', '1', '-33.333333'],
    ['1', '1', '1', '1', '0.000000'],
    // -0.0000004 % rounds to zero: never "-0.000000".
    ['1', '1', '0.999999996', '1', '0.000000'],
    // Exactly half a millionth of a percent: away from zero on both sides.
    ['1', '1', '1.000000005', '1', '0.000001'],
    ['1', '1', '0.999999995', '1', '-0.000001'],
  ];
  for (const [an, ad, bn, bd, want] of cases) {
    assert.equal(relativeDifferencePct(ratio(decimal(an), decimal(ad)), ratio(decimal(bn), decimal(bd))), want, `${an}/${ad} vs ${bn}/${bd}`);
  }
  assert.throws(() => relativeDifferencePct({ num: 0n, den: 1n }, { num: 1n, den: 1n }), RangeError);
});

test('when random bank-like rates are compared, then every difference equals the BigInt oracle', () => {
  const random = seededRandom(39);
  const value = () => `${Math.floor(random() * 100_000)}.${String(Math.floor(random() * 1_000_000)).padStart(6, '0')}`.replace(/^0\.000000$/, '0.000001');
  for (let i = 0; i < 2000; i++) {
    const [an, ad, bn, bd] = [value(), value(), value(), value()];
    if (Number(an) === 0 || Number(ad) === 0 || Number(bd) === 0) continue;
    assert.equal(relativeDifferencePct(ratio(decimal(an), decimal(ad)), ratio(decimal(bn), decimal(bd))), oracle(an, ad, bn, bd), `${an}/${ad} vs ${bn}/${bd}`);
  }
});

test('when a difference is exactly the threshold, then it is not beyond it; a hair more, either way, is', () => {
  const r = (num: string, den = '1') => ratio(decimal(num), decimal(den));
  const beyond = (a: string, b: string, threshold: string) => differsByMorePct(r(a), r(b), decimal(threshold));
  assert.equal(beyond('1', '1.01', '1'), false, 'exactly 1 %');
  assert.equal(beyond('1', '1.0100000001', '1'), true);
  assert.equal(beyond('1', '0.99', '1'), false, 'exactly −1 %');
  assert.equal(beyond('1', '0.9899999999', '1'), true);
  assert.equal(beyond('3', '3.015', '0.5'), false, '0.5 % of 3 is 0.015');
  assert.equal(beyond('3', '3.0150001', '0.5'), true);
  assert.equal(beyond('4.2', '4.2', '0'), false, 'no difference is never beyond 0');
  assert.equal(beyond('4.2', '4.2000001', '0'), true);
  // 1/3 against 0.3367, a reference no finite decimal writes: exactly 1.01 % apart.
  assert.equal(differsByMorePct(r('1', '3'), r('0.3367'), decimal('1.01')), false);
  assert.equal(differsByMorePct(r('1', '3'), r('0.3367'), decimal('1.0099')), true);
  assert.throws(() => differsByMorePct({ num: 0n, den: 1n }, r('1'), decimal('1')), RangeError);
});
