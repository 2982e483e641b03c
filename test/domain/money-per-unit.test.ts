import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimal, decimalText, dividedByPowerOfTen, powerOfTenExponent } from '../../src/domain/money.js';
import { divide, parseDecimal } from '../helpers/oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

test('when a nominal is a power of ten written plainly, then its exponent is given; otherwise none', () => {
  assert.equal(powerOfTenExponent('1'), 0);
  assert.equal(powerOfTenExponent('10'), 1);
  assert.equal(powerOfTenExponent('1000000'), 6);
  for (const text of ['', '0', '2', '20', '100.0', '1e3', '010', ' 10', '11', '-10', '+10']) {
    assert.equal(powerOfTenExponent(text), undefined, JSON.stringify(text));
  }
});

test('when a bank value is divided by its nominal, then the text is the exact quotient in shortest plain form', () => {
  const cases: [string, number, string][] = [
    ['57.0006', 2, '0.570006'],         // CBR DZD per 100
    ['53.9256', 6, '0.0000539256'],     // CBR IRR per 1,000,000
    ['30.075', 4, '0.0030075'],         // CBR VND per 10,000
    ['1.233', 3, '0.001233'],           // CNB IDR per 1000
    ['13.9116', 1, '1.39116'],          // NBU THB per 10
    ['88.2826', 0, '88.2826'],
    ['100', 2, '1'],
    ['120', 1, '12'],
    ['1', 9, '0.000000001'],
  ];
  for (const [value, places, want] of cases) assert.equal(decimalText(dividedByPowerOfTen(decimal(value), places)), want, `${value} / 10^${places}`);
});

test('when random decimals are divided by powers of ten, then each text equals the oracle quotient and parses back to it', () => {
  const random = seededRandom(20261126);
  for (let i = 0; i < 2000; i++) {
    const whole = String(Math.floor(random() * 10 ** (1 + Math.floor(random() * 8))));
    const fraction = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * 10)).join('');
    const value = fraction === '' ? whole : `${whole}.${fraction}`;
    const places = Math.floor(random() * 10);
    const text = decimalText(dividedByPowerOfTen(decimal(value), places));
    assert.match(text, /^(0|[1-9]\d*)(\.\d*[1-9])?$/, `${value} / 10^${places} = ${text}: shortest plain form`);
    const want = divide(parseDecimal(value), { num: 10n ** BigInt(places), den: 1n });
    const got = parseDecimal(text);
    assert.equal(got.num * want.den, want.num * got.den, `${value} / 10^${places} = ${text}`);
  }
});
