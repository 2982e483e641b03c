/**
 * One stored value of a rate source (DECISIONS §9), in that source's own terms: P(c), units of the
 * source's base currency per one unit of `currency` on `date`, as exact decimal text. The
 * source's base is implicit (P = 1).
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

/** A source's stored span, with the source's id. */
export interface SourceSummary extends StoredSpan {
  source: string;
}

/**
 * Folds rows of (source, currency, first day, last day), one per stored pair, into one summary per
 * source, ordered by source id; codes sorted by code point, as the API lists them.
 */
export function summarise(rows: Iterable<{ source: string; currency: string; first: string; last: string }>): SourceSummary[] {
  const bySource = new Map<string, SourceSummary>();
  for (const row of rows) {
    const summary = bySource.get(row.source);
    if (summary === undefined) {
      bySource.set(row.source, { source: row.source, codes: [row.currency], firstDay: row.first, lastDay: row.last });
      continue;
    }
    summary.codes.push(row.currency);
    if (row.first < summary.firstDay) summary.firstDay = row.first;
    if (row.last > summary.lastDay) summary.lastDay = row.last;
  }
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...bySource.values()].sort((a, b) => byCode(a.source, b.source)).map((summary) => ({ ...summary, codes: summary.codes.sort(byCode) }));
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
    for (const pair of day.rates.split(';')) if (pair.length > 4) codes.add(pair.slice(0, 3));
  }
  if (firstDay === undefined || lastDay === undefined) return null;
  return { codes: [...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), firstDay, lastDay };
}

/** An enabled source as GET /sources names it. `url`: the bank's page describing its feed. */
export interface SourceDescription {
  id: string;
  name: string;
  base: string;
  url: string;
}
