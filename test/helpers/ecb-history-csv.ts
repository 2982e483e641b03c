import { crossRate, type EcbDay } from './oracle.js';

/**
 * The ECB history CSV read independently of the service, for expected values computed with the
 * BigInt oracle: `Date,USD,...,` with a trailing comma on every line, `N/A` for no value.
 */
export type History = Map<string, EcbDay>;

export function parseHistoryCsv(text: string): History {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = (lines[0] ?? '').split(',').map((field) => field.trim());
  if (header[0] !== 'Date') throw new Error('history CSV: no Date header');
  const history: History = new Map();
  for (const line of lines.slice(1)) {
    const fields = line.split(',').map((field) => field.trim());
    const day: Record<string, string> = {};
    header.forEach((code, i) => {
      const value = fields[i];
      if (i > 0 && code !== '' && value !== undefined && value !== '' && value !== 'N/A') day[code] = value;
    });
    history.set(fields[0]!, day);
  }
  return history;
}

export function hasRate(day: EcbDay, code: string): boolean {
  return code === 'EUR' || day[code] !== undefined;
}

/** The most recent date on which every one of `codes` has a rate (DECISIONS §3 "latest"). */
export function latestDateWith(history: History, codes: string[]): string | undefined {
  let latest: string | undefined;
  for (const [date, day] of history) {
    if (codes.every((code) => hasRate(day, code)) && (latest === undefined || date > latest)) latest = date;
  }
  return latest;
}

/** Number of values (not N/A) in the file. */
export function countRates(history: History): number {
  let count = 0;
  for (const day of history.values()) count += Object.keys(day).length;
  return count;
}

/**
 * The rate set the service must answer: every tracked code (or each of `symbols`) with a rate
 * that day, the base included, in base units, keys in alphabetical order.
 */
export function expectedRateSet(history: History, date: string, base: string, tracked: string[], symbols?: string[]) {
  const day = history.get(date);
  if (day === undefined) throw new Error(`oracle: no day ${date}`);
  const rates: Record<string, string> = {};
  for (const code of [...new Set(symbols ?? tracked)].sort()) {
    if (hasRate(day, code)) rates[code] = crossRate(day, base, code);
  }
  return { base, date, rates };
}
