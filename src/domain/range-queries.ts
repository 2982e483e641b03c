import type { TrackedCurrencies } from './currencies.js';
import { NoDataInRangeError } from './errors.js';
import { quotient, rateChange, roundedRatio, type Ratio } from './money.js';
import { listedCodes, parseRateSetQuery, ratesIn, type RateSetQuery } from './rate-queries.js';
import type { Day } from './day.js';
import type { RatesSnapshot } from './snapshot.js';

/** Days from `start` to `end`, both included; no `end`: up to the newest day (DECISIONS §8). */
export interface DateRange {
  start: string;
  end: string | undefined;
}

/**
 * GET /rates/{start}..{end}. The days are computed as they are read, one at a time: the whole
 * history (thousands of days) is written out without ever being held as one object.
 */
export interface RateRange {
  base: string;
  start_date: string;
  end_date: string;
  /** The currencies of the answer, alphabetical: each listed one with a rate on some day of it. */
  codes: readonly string[];
  /** Each day of the range on which the base has a rate, oldest first, with its rate set. */
  days(): Iterable<[date: string, rates: Record<string, string>]>;
}

/** How one currency moved over a range, from its first to its last day there with a rate. */
export interface RateMove {
  start_date: string;
  end_date: string;
  start_rate: string;
  end_rate: string;
  change: string;
  change_pct: string;
}

/** GET /fluctuation/{start}..{end}. */
export interface Fluctuation {
  base: string;
  start_date: string;
  end_date: string;
  rates: Record<string, RateMove>;
}

/**
 * Each day of the range on which the base has a rate, with the rate set `/rates/{day}` gives
 * (a symbol without a rate that day is left out of it). The whole history is one answer.
 */
export function ratesBetween(snapshot: RatesSnapshot, tracked: TrackedCurrencies, range: DateRange, query: RateSetQuery): RateRange {
  const { base, symbols } = parseRateSetQuery(tracked, query);
  const ofBase = snapshot.firstAndLastWith([base], range.start, range.end);
  if (ofBase === undefined) throw new NoDataInRangeError(range.start, range.end);
  const listed = [...listedCodes(symbols, tracked)];
  return {
    base,
    start_date: range.start,
    end_date: range.end ?? ofBase[1].date,
    codes: listed.filter((code) => snapshot.firstAndLastWith([code, base], range.start, range.end) !== undefined),
    *days() {
      for (const day of snapshot.daysBetween(range.start, range.end)) {
        const rates = ratesIn(day, base, listed, query.places, query.amount);
        if (rates !== undefined) yield [day.date, rates];
      }
    },
  };
}

/**
 * DECISIONS §16 (Frankfurter v1): ratesBetween, the range first widened back to the last day on
 * or before `start` with a rate for the base, so a range starting on a weekend opens with Friday.
 * As Frankfurter, a day with no rate besides the base's is left out, and the range runs from the
 * first day with one to the last (found by the snapshot's index, before any day is written).
 */
export function ratesBetweenAsOf(snapshot: RatesSnapshot, tracked: TrackedCurrencies, range: DateRange, query: RateSetQuery): RateRange {
  const { base } = parseRateSetQuery(tracked, query);
  const opening = snapshot.lastWithOnOrBefore([base], range.start);
  const widened = ratesBetween(snapshot, tracked, { start: opening?.date ?? range.start, end: range.end }, query);
  let first: string | undefined;
  let last: string | undefined;
  for (const code of widened.codes) {
    const days = code === base ? undefined : snapshot.firstAndLastWith([code, base], widened.start_date, range.end);
    if (days === undefined) continue;
    if (first === undefined || days[0].date < first) first = days[0].date;
    if (last === undefined || days[1].date > last) last = days[1].date;
  }
  if (first === undefined || last === undefined) throw new NoDataInRangeError(range.start, range.end);
  return {
    ...widened,
    start_date: first,
    end_date: last,
    *days() {
      for (const day of widened.days()) if (Object.keys(day[1]).some((code) => code !== base)) yield day;
    },
  };
}

/** The exact rate of `code` in `base` on a day quoting both. */
function exactRate(day: Day, base: string, code: string): Ratio {
  return quotient(day.rate(code)!, day.rate(base)!);
}

function moveBetween(first: Day, last: Day, base: string, code: string, places: number | undefined): RateMove {
  const start = exactRate(first, base, code);
  const end = exactRate(last, base, code);
  const { change, changePct } = rateChange(start, end, places);
  return {
    start_date: first.date,
    end_date: last.date,
    start_rate: roundedRatio(start, places),
    end_rate: roundedRatio(end, places),
    change,
    change_pct: changePct,
  };
}

/**
 * For each currency of the range's rate sets, its move from its first to its last day with a
 * rate (and one for the base): two days per currency, found by the snapshot's index.
 */
export function fluctuation(snapshot: RatesSnapshot, tracked: TrackedCurrencies, range: DateRange, query: RateSetQuery): Fluctuation {
  const { base, symbols } = parseRateSetQuery(tracked, query);
  const ofBase = snapshot.firstAndLastWith([base], range.start, range.end);
  if (ofBase === undefined) throw new NoDataInRangeError(range.start, range.end);
  const rates: Record<string, RateMove> = {};
  for (const code of listedCodes(symbols, tracked)) {
    const days = snapshot.firstAndLastWith([code, base], range.start, range.end);
    if (days !== undefined) rates[code] = moveBetween(days[0], days[1], base, code, query.places);
  }
  return { base, start_date: range.start, end_date: range.end ?? ofBase[1].date, rates };
}
