import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Day } from '../../src/domain/day.js';
import { quotient, roundedRatio } from '../../src/domain/money.js';
import type { SourceDayValues } from '../../src/domain/source-day.js';

/**
 * One source's day alone (DECISIONS §15, `source=ID`): every cross is P(A) / P(B) of that source,
 * exact, in either terms and whether or not it quotes EUR that day; only tracked codes count.
 */
const day = (base: string, terms: SourceDayValues['terms'], values: Record<string, string>): SourceDayValues => ({
  source: 'test',
  base,
  terms,
  values: new Map(Object.entries(values)),
});
/** A source's day alone: one layer, served in its own base's terms (live/rates-view.ts, snapshotOf). */
const sourceAlone = (date: string, values: SourceDayValues, tracked: Set<string>) => new Day(date, [values], { pivot: values.base, tracked });
const cross = (alone: Day, base: string, code: string) => roundedRatio(quotient(alone.rate(code)!, alone.rate(base)!));

test('when a bank quoting its own currency per unit has no EUR that day, then its crosses are still P(A) / P(B)', () => {
  // KZT per unit: USD 500.25, JPY 3.4 (per 1 yen, its nominal already divided out).
  const alone = sourceAlone('2026-04-02', day('KZT', 'base-per-unit', { USD: '500.25', JPY: '3.4' }), new Set(['KZT', 'USD', 'JPY', 'EUR']));
  assert.equal(cross(alone, 'USD', 'JPY'), '147.132353', 'JPY per USD: 500.25 / 3.4');
  assert.equal(cross(alone, 'USD', 'KZT'), '500.250000', 'the base is 1');
  assert.equal(cross(alone, 'KZT', 'USD'), '0.001999');
  assert.equal(alone.has('EUR'), false);
  assert.equal(alone.rate('EUR'), undefined, 'no EUR that day: a base or a target of EUR is no data');
  assert.equal(alone.size, 3);
});

test('when a bank quotes units per 1 GBP, then its crosses are U(B) / U(A), exactly as given', () => {
  const alone = sourceAlone('2026-03-18', day('GBP', 'units-per-base', { EUR: '1.1572', USD: '1.3323', JPY: '212.4739' }), new Set(['GBP', 'EUR', 'USD', 'JPY']));
  assert.equal(cross(alone, 'EUR', 'USD'), '1.151314', '1.3323 / 1.1572 = 1.15131351…');
  assert.equal(cross(alone, 'GBP', 'JPY'), '212.473900');
  assert.equal(cross(alone, 'JPY', 'GBP'), '0.004706');
});

test('when a code is not tracked, then the source\'s day has no rate for it, its base included', () => {
  const alone = sourceAlone('2026-03-04', day('PLN', 'base-per-unit', { EUR: '4.2', AFN: '0.05' }), new Set(['EUR', 'USD']));
  assert.equal(alone.has('AFN'), false);
  assert.equal(alone.rate('AFN'), undefined);
  assert.equal(alone.has('PLN'), false, 'an untracked base is no code of the answer');
  assert.equal(alone.has('EUR'), true);
  assert.equal(alone.size, 1);
});
