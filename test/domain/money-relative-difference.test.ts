import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimal, ratio, relativeDifferencePct } from '../../src/domain/money.js';
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
