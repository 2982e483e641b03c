import { IngestFormatError } from './parsed-day.js';
import { daysAfter } from './sources/day-range.js';
import type { SourceDay } from './sources/source-adapter.js';

/** No bank publishes rates for days before this: an older day is a malformed document. */
export const FIRST_ACCEPTED_DAY = '1900-01-01';
/** Banks publish a few days ahead at most (a Friday's rates for Monday); further is a bad document. */
export const DAYS_AHEAD_ACCEPTED = 7;
/** More than a century of business days: the ECB's whole history is about 7,000. */
export const MAX_DAYS_PER_DOCUMENT = 40_000;

/**
 * Refuses, before anything is stored, a document whose days cannot be a bank's publication
 * (DECISIONS §14): a day before 1900, a day more than a week after today (UTC), or more days than
 * any history holds. One such day would move "latest" or stop a source's back-fill; a huge
 * document would make every start slow. `days` are sorted oldest first; the first one at fault is named.
 */
export function checkDayBounds(days: readonly SourceDay[], today: string, origin: string): void {
  if (days.length > MAX_DAYS_PER_DOCUMENT) {
    throw new IngestFormatError(`${origin}: holds ${days.length} days, more than the ${MAX_DAYS_PER_DOCUMENT} a document may hold`);
  }
  const early = days.find(({ date }) => date < FIRST_ACCEPTED_DAY);
  if (early) throw new IngestFormatError(`${origin}: day ${early.date} is before ${FIRST_ACCEPTED_DAY}`);
  const latest = daysAfter(today, DAYS_AHEAD_ACCEPTED);
  const late = days.find(({ date }) => date > latest);
  if (late) throw new IngestFormatError(`${origin}: day ${late.date} is more than ${DAYS_AHEAD_ACCEPTED} days after today (${today}, UTC)`);
}
