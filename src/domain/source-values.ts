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

/** A source's value as its ingestion hands it to the store (the source given once for all). */
export type SourceValue = Omit<SourceValueRow, 'source'>;
