import type { DayRange } from './source-adapter.js';

const DAY_MS = 86_400_000;

/** The UTC day of a time in ms, YYYY-MM-DD. */
export function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Today's ISO day (UTC): what a feed that takes one day is asked for the latest. */
export function today(): string {
  return isoDay(Date.now());
}

/** The ISO day `days` days after `day` (before it when negative). */
export function daysAfter(day: string, days: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** The ISO day `days` days before today (UTC): where a latest range fetch starts. */
export function daysAgo(days: number): string {
  return isoDay(Date.now() - days * DAY_MS);
}

/** The last `days` days up to today (UTC), today included: a latest fetch that spans holidays. */
export function recentDays(days: number): DayRange {
  const now = Date.now();
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

/** Every ISO day of a range, oldest first: a feed that takes one day is asked once a day. */
export function eachDay(range: DayRange): string[] {
  const days: string[] = [];
  for (let t = Date.parse(range.from); t <= Date.parse(range.to); t += DAY_MS) days.push(isoDay(t));
  return days;
}

/** `range` as consecutive ranges of at most `days` days each, oldest first: a bank's longest request. */
export function rangePieces(range: DayRange, days: number): DayRange[] {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`a range piece needs a whole number of days, at least 1: ${days}`);
  const pieces: DayRange[] = [];
  for (let from = range.from; from <= range.to; from = daysAfter(from, days)) {
    const last = daysAfter(from, days - 1);
    pieces.push({ from, to: last < range.to ? last : range.to });
  }
  return pieces;
}
