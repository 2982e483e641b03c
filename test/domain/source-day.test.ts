import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundedRatio } from '../../src/domain/money.js';
import { eurQuotedCodes, eurRate, quotesEur, type SourceDayValues } from '../../src/domain/source-day.js';

/**
 * A source's figures per 1 EUR, in either terms and from any base (DECISIONS §9): the ECB's own
 * figures as they are; a bank quoting units per 1 GBP (as the Bank of England does) through
 * U(c) / U(EUR); a bank quoting its own currency per unit (NBP) through P(EUR) / P(c). Exact.
 */
const day = (base: string, terms: SourceDayValues['terms'], values: Record<string, string>): SourceDayValues => ({
  source: 'test',
  base,
  terms,
  values: new Map(Object.entries(values)),
});

test('when a source gives units per 1 GBP, then a rate per 1 EUR is U(c) / U(EUR), its base among them, exactly', () => {
  const boe = day('GBP', 'units-per-base', { EUR: '1.1700', USD: '1.2700', JPY: '190.5' });
  assert.equal(quotesEur(boe), true);
  assert.deepEqual(eurQuotedCodes(boe).sort(), ['GBP', 'JPY', 'USD']);
  const usd = eurRate(boe, 'USD')!;
  assert.equal(usd.num * 117n, usd.den * 127n, 'exactly 1.27 / 1.17');
  assert.equal(roundedRatio(eurRate(boe, 'USD')!), '1.085470');
  assert.equal(roundedRatio(eurRate(boe, 'GBP')!), '0.854701', 'GBP per 1 EUR: 1 / U(EUR)');
  assert.equal(roundedRatio(eurRate(boe, 'EUR')!), '1.000000');
  assert.equal(eurRate(boe, 'CHF'), undefined);
  assert.equal(quotesEur(day('GBP', 'units-per-base', { USD: '1.27' })), false, 'no EUR that day: no rate per 1 EUR');
});

test("when a source gives units per 1 EUR (the ECB), then its figures are the rates; when a bank's own currency per unit, P(EUR) / P(c)", () => {
  const ecb = day('EUR', 'units-per-base', { USD: '1.1649', JPY: '183.2' });
  assert.deepEqual(eurQuotedCodes(ecb), ['USD', 'JPY']);
  const usd = eurRate(ecb, 'USD')!;
  assert.equal(usd.num * 10000n, usd.den * 11649n, 'exactly its figure');
  const nbp = day('PLN', 'base-per-unit', { EUR: '4.2304', USD: '3.6056' });
  assert.deepEqual(eurQuotedCodes(nbp).sort(), ['PLN', 'USD']);
  assert.equal(roundedRatio(eurRate(nbp, 'USD')!), '1.173286');
  assert.equal(roundedRatio(eurRate(nbp, 'PLN')!), '4.230400');
});
