/** The chart's ranges, each ending on the newest day with data. */
export type RangeChoice = '1m' | '1y' | '5y' | 'all';

/** The first day of the ECB's reference rates: "all" starts here. */
export const FIRST_DAY = '1999-01-04';

const MONTHS: Record<Exclude<RangeChoice, 'all'>, number> = { '1m': 1, '1y': 12, '5y': 60 };

export function isRangeChoice(value: string): value is RangeChoice {
  return value === 'all' || value in MONTHS;
}

/**
 * The first day of a range ending on `newest` (YYYY-MM-DD): the same day of the month `n` months
 * before, or that month's last day when it has no such day (a month before 03-31 is 02-28).
 */
export function rangeStart(choice: RangeChoice, newest: string): string {
  if (choice === 'all') return FIRST_DAY;
  const [year, month, day] = newest.split('-').map(Number) as [number, number, number];
  const months = year * 12 + (month - 1) - MONTHS[choice];
  const y = Math.floor(months / 12);
  const m = (months % 12) + 1;
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const start = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(day, lastDay)).padStart(2, '0')}`;
  return start < FIRST_DAY ? FIRST_DAY : start;
}
