import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Day } from '../../src/domain/day.js';
import { RatesSnapshot } from '../../src/domain/snapshot.js';
import { StoredSourceDay, type DaySource } from '../../src/domain/source-day.js';

const ECB: DaySource = { id: 'ecb', base: 'EUR', terms: 'units-per-base' };
/** An ECB day as a server holds it: one layer, as the store encoded it, served per 1 EUR (EUR among the tracked codes, as it always is when asked for). */
const ecbDay = ({ date, rates }: { date: string; rates: string }, tracked: Set<string>) => new Day(date, [new StoredSourceDay(ECB, date, rates)], { pivot: 'EUR', tracked: new Set([...tracked, 'EUR']) });

const DATES = ['2020-01-02', '2020-01-03', '2020-01-06', '2020-01-07', '2020-01-10'];
const snapshot = RatesSnapshot.empty().withDays(
  DATES.map((date) => ecbDay({ date, rates: 'USD=1.1' }, new Set(['USD']))),
  1,
);
const between = (start: string, end: string | undefined) => snapshot.daysBetween(start, end).map((day) => day.date);

test('when the days of a range are asked, then exactly the stored days from start to end, both included, come oldest first', () => {
  assert.deepEqual(between('2020-01-03', '2020-01-07'), ['2020-01-03', '2020-01-06', '2020-01-07']);
  assert.deepEqual(between('2020-01-04', '2020-01-08'), ['2020-01-06', '2020-01-07']);
  assert.deepEqual(between('2020-01-06', '2020-01-06'), ['2020-01-06']);
  assert.deepEqual(between('2020-01-04', '2020-01-05'), []);
  assert.deepEqual(between('2019-01-01', '2020-01-02'), ['2020-01-02']);
  assert.deepEqual(between('2020-01-10', '2030-01-01'), ['2020-01-10']);
  assert.deepEqual(between('2020-01-11', undefined), []);
  assert.deepEqual(between('1999-01-01', undefined), DATES);
  assert.deepEqual(between('2020-01-07', '2020-01-06'), []);
  assert.deepEqual(RatesSnapshot.empty().daysBetween('2020-01-01', undefined), []);
});

test('when the first and last days quoting several codes are asked, then they are the days quoting all of them within the range', () => {
  // USD every day; GBP on the 3rd, 7th and 10th; JPY from the 6th.
  const quotes: Record<string, string> = {
    '2020-01-02': 'USD=1.1',
    '2020-01-03': 'USD=1.1;GBP=0.8',
    '2020-01-06': 'USD=1.1;JPY=120',
    '2020-01-07': 'USD=1.1;GBP=0.8;JPY=121',
    '2020-01-10': 'USD=1.1;GBP=0.9;JPY=122',
  };
  const gaps = RatesSnapshot.empty().withDays(
    Object.entries(quotes).map(([date, rates]) => ecbDay({ date, rates }, new Set(['USD', 'GBP', 'JPY']))),
    1,
  );
  const firstAndLast = (codes: string[], start: string, end: string | undefined) => gaps.firstAndLastWith(codes, start, end)?.map((day) => day.date);
  assert.deepEqual(firstAndLast(['EUR'], '2020-01-01', undefined), ['2020-01-02', '2020-01-10']);
  assert.deepEqual(firstAndLast(['GBP'], '2020-01-01', undefined), ['2020-01-03', '2020-01-10']);
  assert.deepEqual(firstAndLast(['GBP', 'JPY'], '2020-01-01', undefined), ['2020-01-07', '2020-01-10']);
  assert.deepEqual(firstAndLast(['JPY', 'GBP', 'USD'], '2020-01-01', '2020-01-09'), ['2020-01-07', '2020-01-07']);
  assert.deepEqual(firstAndLast(['GBP', 'JPY'], '2020-01-08', '2020-01-09'), undefined);
  assert.deepEqual(firstAndLast(['GBP', 'JPY'], '2020-01-01', '2020-01-06'), undefined);
  assert.deepEqual(firstAndLast(['GBP'], '2020-01-04', '2020-01-06'), undefined);
  assert.deepEqual(firstAndLast(['USD'], '2020-01-11', undefined), undefined);
  assert.deepEqual(firstAndLast(['GBP', 'EUR'], '2020-01-03', '2020-01-03'), ['2020-01-03', '2020-01-03']);
});

test('when the index by code is made in pieces, then each piece reads 500 days, and an answer asked midway makes the rest and finds what a whole index finds', (t) => {
  // 1,200 days: USD every day, GBP on every third one.
  const days = Array.from({ length: 1_200 }, (_, i) => {
    const date = new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);
    return ecbDay({ date, rates: i % 3 === 0 ? 'USD=1.1;GBP=0.8' : 'USD=1.1' }, new Set(['USD', 'GBP']));
  });
  const inPieces = RatesSnapshot.empty().withDays(days, 1);
  const whole = RatesSnapshot.empty().withDays(days, 1);
  const read = t.mock.method(Day.prototype, 'codes');
  assert.equal(inPieces.indexPiece(), false);
  assert.equal(read.mock.callCount(), 500, 'the first piece read 500 days');
  assert.equal(inPieces.indexPiece(), false);
  assert.equal(read.mock.callCount(), 1_000);
  // Midway: the answer makes the rest itself (200 days), not the whole index again.
  const firstAndLast = (snapshot: RatesSnapshot) => snapshot.firstAndLastWith(['GBP', 'USD'], '2000-06-01', '2002-12-31')?.map((day) => day.date);
  assert.deepEqual(firstAndLast(inPieces), ['2000-06-02', '2002-12-31']);
  assert.equal(read.mock.callCount(), 1_200, 'the last 200 days');
  assert.equal(inPieces.indexPiece(), true);
  assert.deepEqual(firstAndLast(whole), ['2000-06-02', '2002-12-31']);
  assert.equal(read.mock.callCount(), 2_400, 'the other snapshot: its whole index at once, on first use');
  assert.deepEqual(inPieces.firstAndLastWith(['GBP'], '2003-01-01', undefined)?.map((day) => day.date), ['2003-01-03', '2003-04-12']);
  assert.equal(read.mock.callCount(), 2_400, 'a made index is not made again');
});
