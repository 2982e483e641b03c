import { codesIn } from './day-encoding.js';

/**
 * One stored value of a rate source (DECISIONS §9), in that source's own terms: for a bank, P(c),
 * units of the source's base currency per one unit of `currency` on `date`; for the ECB, units of
 * `currency` per 1 EUR, its published figure (source-day.ts). Exact decimal text; the source's
 * base is implicit.
 */
export interface SourceValueRow {
  source: string;
  date: string;
  currency: string;
  value: string;
}

/** One source's stored day as the store hands it over: its values encoded as day-encoding.ts does. */
export interface EncodedSourceDay {
  source: string;
  date: string;
  rates: string;
}

/** A source's value as its ingestion hands it to the store (the source given once for all). */
export type SourceValue = Omit<SourceValueRow, 'source'>;

/** What a store holds of one source: the codes it has values for (sorted), its first and last day. */
export interface StoredSpan {
  codes: string[];
  firstDay: string;
  lastDay: string;
}

/**
 * The span of days stored whole, one string each (`USD=1.1684;JPY=186.75`, day-encoding.ts): every
 * code and the first and last day, or null for none. Reading these ~7,000 strings costs a
 * fraction of grouping the ~218,000 rows of the ECB's history by currency.
 */
export function spanOfEncodedDays(days: Iterable<{ date: string; rates: string }>): StoredSpan | null {
  const codes = new Set<string>();
  let firstDay: string | undefined;
  let lastDay: string | undefined;
  for (const day of days) {
    if (firstDay === undefined || day.date < firstDay) firstDay = day.date;
    if (lastDay === undefined || day.date > lastDay) lastDay = day.date;
    for (const code of codesIn(day.rates)) codes.add(code);
  }
  if (firstDay === undefined || lastDay === undefined) return null;
  return { codes: [...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), firstDay, lastDay };
}

/**
 * An enabled source as GET /sources names it (DECISIONS §9, §15). `url`: the bank's page describing
 * its feed; the rest as the adapter declares it (SourceAdapter).
 */
export interface SourceDescription {
  id: string;
  name: string;
  base: string;
  url: string;
  country: string | null;
  rateType: string;
  cadence: string;
  publishesFrom: string | null;
}
