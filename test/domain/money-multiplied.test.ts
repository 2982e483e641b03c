import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agreesWithin, decimal, decimalText, multiplied, roundedToPlaces } from '../../src/domain/money.js';
import { multiply, parseDecimal } from '../helpers/oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

test('when a per-gram price is multiplied by the grams in a troy ounce, then the product is exact', () => {
  const ounce = decimal('31.1034768');
  assert.equal(decimalText(multiplied(decimal('60871'), ounce)), '1893299.7362928'); // CBA gold, AMD per gram
  assert.equal(decimalText(multiplied(decimal('0.5'), decimal('0.2'))), '0.1');
  assert.equal(decimalText(multiplied(decimal('-1.25'), decimal('8'))), '-10');
  assert.equal(decimalText(multiplied(decimal('123.45'), decimal('0'))), '0');
});

test('when random decimals are multiplied, then each product equals the oracle product', () => {
  const random = seededRandom(20261128);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  for (let i = 0; i < 2000; i++) {
    const [a, b] = [0, 1].map(() => `${digits(1 + Math.floor(random() * 8))}.${digits(1 + Math.floor(random() * 10))}`) as [string, string];
    const got = parseDecimal(decimalText(multiplied(decimal(a), decimal(b))));
    const want = multiply(parseDecimal(a), parseDecimal(b));
    assert.equal(got.num * want.den, want.num * got.den, `${a} × ${b}`);
  }
});

test('when a value is rounded to a number of places, then it rounds half up (ties away from zero) once', () => {
  const cases: [string, number, string][] = [
    ['7.8245000000000005', 4, '7.8245'],
    ['3.9300000000000002', 4, '3.93'],
    ['4.6086999999999998', 4, '4.6087'],
    ['1.00005', 4, '1.0001'],
    ['1.00004999', 4, '1'],
    ['-1.00005', 4, '-1.0001'],
    ['0.0004666', 8, '0.0004666'],
    ['12', 2, '12'],
  ];
  for (const [value, places, want] of cases) assert.equal(decimalText(roundedToPlaces(decimal(value), places)), want, `${value} to ${places} places`);
});

test('when two values are compared to some significant digits, then only a gap within |a| / 10^digits agrees', () => {
  assert.equal(agreesWithin(decimal('7.8245'), decimal('7.8245000000000005'), 15), true);
  assert.equal(agreesWithin(decimal('0.0004666'), decimal('0.00046660000000000003'), 15), true);
  assert.equal(agreesWithin(decimal('0.0004666'), decimal('0.0004666000000001'), 15), false, 'a real digit at the 13th significant place');
  assert.equal(agreesWithin(decimal('4.5093'), decimal('4.50931'), 15), false);
  assert.equal(agreesWithin(decimal('100'), decimal('101'), 2), true, 'a gap of exactly |a| / 10^digits agrees');
  assert.equal(agreesWithin(decimal('100'), decimal('101.0001'), 2), false);
  assert.equal(agreesWithin(decimal('-100'), decimal('-99'), 2), true);
});
