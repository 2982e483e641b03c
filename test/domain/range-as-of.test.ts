import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TrackedCurrencies } from '../../src/domain/currencies.js';
import { Day } from '../../src/domain/day.js';
import { ratesBetweenAsOf } from '../../src/domain/range-queries.js';
import { RatesSnapshot } from '../../src/domain/snapshot.js';
import { StoredSourceDay, type DaySource } from '../../src/domain/source-day.js';

/**
 * DECISIONS §16, Frankfurter v1's range: widened back to the last day with a rate for the base on
 * or before its start; its first and last days (written before any day) are those with a rate
 * besides the base's, and the days without one are left out.
 */

const ECB: DaySource = { id: 'ecb', base: 'EUR', terms: 'units-per-base' };
const CODES = ['EUR', 'USD', 'GBP', 'JPY'];
const tracked = new TrackedCurrencies(CODES);
// USD every day; GBP on the 3rd, 7th and 10th; JPY on the 6th and 7th.
const QUOTES: Record<string, string> = {
  '2020-01-02': 'USD=1.1',
  '2020-01-03': 'USD=1.1;GBP=0.8',
  '2020-01-06': 'USD=1.1;JPY=120',
  '2020-01-07': 'USD=1.1;GBP=0.8;JPY=121',
  '2020-01-10': 'USD=1.1;GBP=0.9',
};
const snapshot = RatesSnapshot.empty().withDays(
  Object.entries(QUOTES).map(([date, rates]) => new Day(date, [new StoredSourceDay(ECB, date, rates)], { pivot: 'EUR', tracked: new Set(CODES) })),
  1,
);

function asOf(start: string, end: string | undefined, base: string, symbols: string[]) {
  const range = ratesBetweenAsOf(snapshot, tracked, { start, end }, { base, symbols });
  return { start_date: range.start_date, end_date: range.end_date, days: [...range.days()].map(([date]) => date) };
}

test('when a v1 range starts on a day without rates, then it opens with the last day before it that has them', () => {
  assert.deepEqual(asOf('2020-01-04', undefined, 'EUR', ['GBP']), { start_date: '2020-01-03', end_date: '2020-01-10', days: ['2020-01-03', '2020-01-07', '2020-01-10'] });
  assert.deepEqual(asOf('2020-01-08', '2020-01-09', 'EUR', ['GBP']), { start_date: '2020-01-07', end_date: '2020-01-07', days: ['2020-01-07'] });
});

test('when the first or last days of a v1 range have no rate besides the base, then the range runs from the first day with one to the last', () => {
  assert.deepEqual(asOf('2020-01-02', undefined, 'EUR', ['JPY']), { start_date: '2020-01-06', end_date: '2020-01-07', days: ['2020-01-06', '2020-01-07'] });
  // The base among the symbols counts for nothing: its rate, 1, is not shown.
  assert.deepEqual(asOf('2020-01-02', '2020-01-06', 'EUR', ['EUR', 'GBP']), { start_date: '2020-01-03', end_date: '2020-01-03', days: ['2020-01-03'] });
  assert.deepEqual(asOf('2020-01-02', undefined, 'USD', ['GBP', 'JPY', 'USD']), { start_date: '2020-01-03', end_date: '2020-01-10', days: ['2020-01-03', '2020-01-06', '2020-01-07', '2020-01-10'] });
});

test('when no day of a v1 range has a rate besides the base, then it is no data between the days asked', () => {
  // Widened back to the 10th itself (it has rates for EUR), which quotes no JPY.
  assert.throws(() => asOf('2020-01-10', '2020-01-10', 'EUR', ['JPY']), { name: 'NoDataInRangeError', message: 'No exchange rate data available between 2020-01-10 and 2020-01-10' });
  assert.throws(() => asOf('2020-01-02', undefined, 'USD', ['USD']), { name: 'NoDataInRangeError', message: 'No exchange rate data available from 2020-01-02' });
});
