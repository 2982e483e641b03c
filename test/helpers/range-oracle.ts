import { hasRate, type History } from './ecb-history-csv.js';
import { divide, formatHalfUp6, multiply, perEuro, subtract, type EcbDay, type Rational } from './oracle.js';

/**
 * The answers DECISIONS §8 asks of ranges and fluctuation, computed from the ECB history CSV
 * with the BigInt oracle, independently of the service: undefined where the service must 404.
 */

/** The dates of the history from `start` to `end` (none: to the newest) on which `base` has a rate, oldest first. */
function datesOfBase(history: History, start: string, end: string | undefined, base: string): string[] {
  return [...history.keys()].filter((date) => date >= start && (end === undefined || date <= end) && hasRate(history.get(date)!, base)).sort();
}

/** The codes a rate set lists: the distinct symbols asked for (upper-cased), else every tracked code, alphabetical. */
function listed(tracked: readonly string[], symbols: readonly string[] | undefined): string[] {
  return [...new Set((symbols ?? tracked).map((code) => code.toUpperCase()))].sort();
}

const exactRate = (day: EcbDay, base: string, code: string): Rational => divide(perEuro(day, code), perEuro(day, base));

export function expectedRange(history: History, start: string, end: string | undefined, base: string, tracked: readonly string[], symbols?: readonly string[]) {
  const dates = datesOfBase(history, start, end, base);
  if (dates.length === 0) return undefined;
  const codes = listed(tracked, symbols);
  const rates: Record<string, Record<string, string>> = {};
  for (const date of dates) {
    const day = history.get(date)!;
    const ofDay: Record<string, string> = {};
    for (const code of codes) if (hasRate(day, code)) ofDay[code] = formatHalfUp6(exactRate(day, base, code));
    rates[date] = ofDay;
  }
  return { base, start_date: start, end_date: end ?? dates[dates.length - 1]!, rates };
}

export function expectedFluctuation(history: History, start: string, end: string | undefined, base: string, tracked: readonly string[], symbols?: readonly string[]) {
  const dates = datesOfBase(history, start, end, base);
  if (dates.length === 0) return undefined;
  const rates: Record<string, Record<string, string>> = {};
  for (const code of listed(tracked, symbols)) {
    const withCode = dates.filter((date) => hasRate(history.get(date)!, code));
    if (withCode.length === 0) continue;
    const first = withCode[0]!;
    const last = withCode[withCode.length - 1]!;
    const from = exactRate(history.get(first)!, base, code);
    const to = exactRate(history.get(last)!, base, code);
    const change = subtract(to, from);
    rates[code] = {
      start_date: first,
      end_date: last,
      start_rate: formatHalfUp6(from),
      end_rate: formatHalfUp6(to),
      change: formatHalfUp6(change),
      change_pct: formatHalfUp6(multiply(divide(change, from), { num: 100n, den: 1n })),
    };
  }
  return { base, start_date: start, end_date: end ?? dates[dates.length - 1]!, rates };
}
