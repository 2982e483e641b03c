import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Day } from '../../src/domain/day.js';
import { roundedRatio } from '../../src/domain/money.js';
import type { SourceDayValues } from '../../src/domain/source-day.js';

/**
 * Which source serves a code on a day (DECISIONS §9, §15): SOURCES order as listed, or with
 * SOURCES=all the ECB, then the code's home bank, then the list (by breadth). The Bank of Russia
 * quotes KZT and the National Bank of Kazakhstan RUB, so only a per-code rule puts both home banks first.
 */
const layer = (source: string, base: string, terms: SourceDayValues['terms'], values: Record<string, string>): SourceDayValues => ({
  source, base, terms, values: new Map(Object.entries(values)),
});
const ecb = layer('ecb', 'EUR', 'units-per-base', { USD: '1.2000', CZK: '24.000' });
// Broad, ahead of both home banks in the list: its own figures are distinguishable (EUR 100).
const cbu = layer('cbu', 'UZS', 'base-per-unit', { EUR: '100', USD: '80', CZK: '5', RUB: '1.25', KZT: '0.2' });
const cbr = layer('cbr', 'RUB', 'base-per-unit', { EUR: '90', USD: '75', KZT: '0.18' });
const nbk = layer('nbk', 'KZT', 'base-per-unit', { EUR: '600', USD: '500', RUB: '6.5' });
const cnb = layer('cnb', 'CZK', 'base-per-unit', { EUR: '24.5' });
const TRACKED = new Set(['EUR', 'USD', 'CZK', 'RUB', 'KZT', 'UZS']);

const served = (day: Day) => Object.fromEntries([...TRACKED].sort().map((code) => [code, day.has(code) ? roundedRatio(day.rate(code)!) : undefined]));

test('when SOURCES=all, then each code comes from the ECB, else its home bank, else the first in the list', () => {
  const day = new Day('2026-04-01', [ecb, cbu, cbr, nbk, cnb], { pivot: 'EUR', tracked: TRACKED, leader: 'ecb' });
  assert.deepEqual(served(day), {
    CZK: '24.000000', // the ECB's, though the CNB (CZK's home) has it too
    EUR: '1.000000',
    KZT: '600.000000', // nbk: P(EUR) = 600 KZT, not cbu's 100 / 0.2 = 500 nor cbr's 90 / 0.18 = 500
    RUB: '90.000000', // cbr's own, not cbu's 80 nor nbk's 600 / 6.5
    USD: '1.200000',
    UZS: '100.000000',
  });
  assert.equal(day.size, 6);
});

test('when SOURCES=all and the ECB has no day, then home banks still come before broader banks', () => {
  const day = new Day('2026-04-04', [cbu, cbr, nbk, cnb], { pivot: 'EUR', tracked: TRACKED, leader: 'ecb' });
  assert.deepEqual(served(day), { CZK: '24.500000', EUR: '1.000000', KZT: '600.000000', RUB: '90.000000', USD: '1.250000', UZS: '100.000000' });
});

test('when SOURCES lists ids, then the list alone decides, home banks included', () => {
  const day = new Day('2026-04-01', [ecb, cbu, cbr, nbk, cnb], { pivot: 'EUR', tracked: TRACKED });
  assert.deepEqual(served(day), { CZK: '24.000000', EUR: '1.000000', KZT: '500.000000', RUB: '80.000000', USD: '1.200000', UZS: '100.000000' });
});
