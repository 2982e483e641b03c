import { decimal, type Decimal } from './money.js';

/**
 * The rates of one day, per 1 EUR, as the exact decimal strings stored. EUR itself is implicit
 * (always 1). Strings rather than parsed decimals: the full history is over 200,000 values, and
 * a request parses only the few it uses.
 */
export interface Day {
  readonly date: string;
  readonly rates: ReadonlyMap<string, string>;
}

/** A stored rate as the storage layer hands it over. */
export interface RateRow {
  date: string;
  currency: string;
  rate: string;
}

const ONE = decimal('1');

/**
 * An immutable view of every ingested day, restricted to the tracked currencies. Requests read
 * one snapshot from start to end; a refresh builds a new one, so no answer mixes two versions.
 */
export class RatesSnapshot {
  private readonly byDate: ReadonlyMap<string, Day>;
  /** Newest first, because "latest" lookups scan from the end of the history. */
  private readonly newestFirst: readonly Day[];

  private constructor(days: Map<string, Day>, readonly version: number) {
    this.byDate = days;
    this.newestFirst = [...days.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  static empty(): RatesSnapshot {
    return new RatesSnapshot(new Map(), 0);
  }

  /** A new snapshot with rows merged in (rows replace stored values of the same day and currency). */
  withRows(rows: Iterable<RateRow>, version: number, tracked: ReadonlySet<string>): RatesSnapshot {
    const changed = new Map<string, Map<string, string>>();
    for (const row of rows) {
      if (!tracked.has(row.currency) || row.currency === 'EUR') continue;
      let rates = changed.get(row.date);
      if (!rates) {
        rates = new Map(this.byDate.get(row.date)?.rates ?? []);
        changed.set(row.date, rates);
      }
      rates.set(row.currency, row.rate);
    }
    const days = new Map(this.byDate);
    for (const [date, rates] of changed) days.set(date, { date, rates });
    return new RatesSnapshot(days, version);
  }

  get isEmpty(): boolean {
    return this.newestFirst.length === 0;
  }

  get dayCount(): number {
    return this.newestFirst.length;
  }

  day(date: string): Day | undefined {
    return this.byDate.get(date);
  }

  /** The most recent day on which every given currency has a rate. */
  latestWith(codes: Iterable<string>): Day | undefined {
    const wanted = [...codes].filter((code) => code !== 'EUR');
    return this.newestFirst.find((day) => wanted.every((code) => day.rates.has(code)));
  }

  static rateOn(day: Day, code: string): Decimal | undefined {
    if (code === 'EUR') return ONE;
    const rate = day.rates.get(code);
    return rate === undefined ? undefined : decimal(rate);
  }
}
