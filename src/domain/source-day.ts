import { decodeDayRates } from './day-encoding.js';
import { decimal, ONE, ratio, type Ratio } from './money.js';

/**
 * One source's stored values of one day, each the source's own figure for c: `base-per-unit`,
 * P(c) = units of the source's base per one unit of c (DECISIONS §9); `units-per-base`, U(c) =
 * units of c per one unit of the base (the ECB's per 1 EUR; a bank's per 1 GBP or 1 AUD).
 */
export interface SourceDayValues {
  source: string;
  base: string;
  terms: 'units-per-base' | 'base-per-unit';
  values: ReadonlyMap<string, string>;
}

/** The source's figure for `code`, its base included (1 in either terms); undefined when not given. */
function valueOf(day: SourceDayValues, code: string): string | undefined {
  return code === day.base ? '1' : day.values.get(code);
}

/** Whether the source gives a rate per 1 EUR that day: when EUR is its base or one of its values. */
export function quotesEur(day: SourceDayValues): boolean {
  return valueOf(day, 'EUR') !== undefined;
}

/** The codes the source has a rate per 1 EUR for that day (its base among them), EUR aside. */
export function eurQuotedCodes(day: SourceDayValues): string[] {
  if (!quotesEur(day)) return [];
  const codes = [...day.values.keys()];
  if (day.base !== 'EUR') codes.push(day.base);
  return codes.filter((code) => code !== 'EUR');
}

/**
 * The source's rate of `code` per 1 EUR that day, exact: U(code) / U(EUR) (the ECB: its own
 * figure, U(EUR) being 1), or P(EUR) / P(code). EUR itself is 1; undefined when the source has no
 * EUR or no `code` that day.
 */
export function eurRate(day: SourceDayValues, code: string): Ratio | undefined {
  if (!quotesEur(day)) return undefined;
  if (code === 'EUR') return ratio(ONE, ONE);
  const text = valueOf(day, code);
  if (text === undefined) return undefined;
  if (day.terms === 'base-per-unit') return ratio(decimal(valueOf(day, 'EUR')!), decimal(text));
  return day.base === 'EUR' ? ratio(decimal(text), ONE) : ratio(decimal(text), decimal(valueOf(day, 'EUR')!));
}

/** Every rate of the source per 1 EUR that day (EUR aside), or undefined when it has no EUR. */
export function eurRates(day: SourceDayValues): Map<string, Ratio> | undefined {
  if (!quotesEur(day)) return undefined;
  return new Map(eurQuotedCodes(day).map((code) => [code, eurRate(day, code)!]));
}

/**
 * A source's day as stored (`USD=3.6056;EUR=4.2304`, day-encoding.ts), decoded on first use: a
 * server holds a bank's whole history as one string a day, as it holds the ECB's.
 */
export function storedSourceDay(source: string, base: string, terms: SourceDayValues['terms'], encoded: string): SourceDayValues {
  let decoded: ReadonlyMap<string, string> | undefined;
  return {
    source,
    base,
    terms,
    get values() {
      return (decoded ??= decodeDayRates(encoded, () => true));
    },
  };
}
