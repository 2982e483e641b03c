/** A stored cell: one currency on one day. */
interface Cell {
  date: string;
  currency: string;
}

/** What a merge writes, and how it counts them. */
export interface MergeChanges<T> {
  /** Values for a cell the store did not hold. */
  added: number;
  /** Values that replace a different stored value. */
  changed: number;
  /** The values to write, one per cell: of several for one cell in the input, the last. */
  writes: T[];
}

/**
 * The changes a merge of `rows` makes, each counted against the value stored before the merge
 * (`storedBefore`): a value equal to it changes nothing. The rule every store's merge follows,
 * so that SQLite and PostgreSQL report a run alike.
 */
export function mergeChanges<T extends Cell>(
  rows: readonly T[],
  valueOf: (row: T) => string,
  storedBefore: (date: string, currency: string) => string | undefined,
): MergeChanges<T> {
  // Of several values for one cell, the last is the one merged, and it alone is counted. NUL
  // cannot occur in a day or a code (PostgreSQL text cannot even hold it).
  const last = new Map<string, T>();
  for (const row of rows) last.set(`${row.date}\u0000${row.currency}`, row);
  let added = 0;
  let changed = 0;
  const writes: T[] = [];
  for (const row of last.values()) {
    const before = storedBefore(row.date, row.currency);
    if (before === valueOf(row)) continue;
    if (before === undefined) added++;
    else changed++;
    writes.push(row);
  }
  return { added, changed, writes };
}
