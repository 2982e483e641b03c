import { decimal, decimalText } from '../../domain/money.js';
import type { RateRange } from '../../domain/range-queries.js';

/**
 * DECISIONS §16: the peers answer numbers, not strings. Each is written as JSON text from our
 * exact decimal string (rounded once already), trailing fractional zeros dropped: never through
 * a binary float, so `0.870580` is sent as `0.87058`, digit for digit.
 */
export const jsonNumber = (text: string): string => decimalText(decimal(text));

/** A rate set's rates as a JSON object of numbers, in the order given; `without` (a code) left out. */
export function ratesJson(rates: Readonly<Record<string, string>>, without?: string): string {
  const members: string[] = [];
  for (const code in rates) if (code !== without) members.push(`${JSON.stringify(code)}:${jsonNumber(rates[code]!)}`);
  return `{${members.join(',')}}`;
}

/** A range's rates as a JSON object by day, `{"YYYY-MM-DD":{…},…}`, written day by day; `without` left out of each day. */
export function* ratesByDay(range: RateRange, without?: string): Iterable<string> {
  yield '{';
  let separator = '';
  for (const [date, rates] of range.days()) {
    yield `${separator}"${date}":${ratesJson(rates, without)}`;
    separator = ',';
  }
  yield '}';
}

/** Midnight UTC of a day, in Unix seconds: what OXR's `timestamp` shows for a day's rates. */
export const dayTimestamp = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;
