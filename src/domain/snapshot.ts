import { decodeDayRates, type EncodedDay } from './day-encoding.js';
import { decimal, ONE, type Decimal } from './money.js';

/**
 * The rates of one day, per 1 EUR, as the exact decimal strings stored. EUR itself is implicit
 * (always 1).
 */
export interface Day {
  readonly date: string;
  readonly rates: ReadonlyMap<string, string>;
  /** The rate of a currency as an exact decimal (EUR: 1), parsed once per day and currency. */
  rate(code: string): Decimal | undefined;
}

/** A stored rate as the storage layer hands it over. */
export interface RateRow {
  date: string;
  currency: string;
  rate: string;
}

/**
 * A day kept as the store encoded it and decoded on first use: a start-up loads the whole history
 * without building 200,000 map entries, and most requests only ever touch the newest days.
 */
class StoredDay implements Day {
  private decoded: ReadonlyMap<string, string> | undefined;
  private readonly parsed = new Map<string, Decimal>();

  constructor(
    readonly date: string,
    private readonly encoded: string,
    private readonly tracked: ReadonlySet<string>,
  ) {}

  get rates(): ReadonlyMap<string, string> {
    return (this.decoded ??= decodeDayRates(this.encoded, (code) => code !== 'EUR' && this.tracked.has(code)));
  }

  rate(code: string): Decimal | undefined {
    if (code === 'EUR') return ONE;
    let value = this.parsed.get(code);
    if (value === undefined) {
      const text = this.rates.get(code);
      if (text === undefined) return undefined;
      this.parsed.set(code, (value = decimal(text)));
    }
    return value;
  }
}

/**
 * An immutable view of every ingested day, restricted to the tracked currencies. Requests read
 * one snapshot from start to end; a refresh builds a new one, so no answer mixes two versions.
 */
export class RatesSnapshot {
  private readonly byDate: ReadonlyMap<string, Day>;
  /** Newest first, because "latest" lookups scan from the end of the history. */
  private readonly newestFirst: readonly Day[];
  /** latestWith's answers for this snapshot, by the sorted set of codes asked for. */
  private readonly latestByCodes = new Map<string, Day | undefined>();

  private constructor(days: Map<string, Day>, readonly version: number) {
    this.byDate = days;
    this.newestFirst = [...days.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  static empty(): RatesSnapshot {
    return new RatesSnapshot(new Map(), 0);
  }

  /** A new snapshot in which the given days (each whole, as stored) replace the ones held. */
  withDays(days: Iterable<EncodedDay>, version: number, tracked: ReadonlySet<string>): RatesSnapshot {
    const merged = new Map(this.byDate);
    for (const day of days) merged.set(day.date, new StoredDay(day.date, day.rates, tracked));
    return new RatesSnapshot(merged, version);
  }

  get isEmpty(): boolean {
    return this.newestFirst.length === 0;
  }

  get dayCount(): number {
    return this.newestFirst.length;
  }

  /** Every ingested date, newest first. */
  get datesNewestFirst(): string[] {
    return this.newestFirst.map((day) => day.date);
  }

  day(date: string): Day | undefined {
    return this.byDate.get(date);
  }

  /** The most recent day on which every given currency has a rate. */
  latestWith(codes: readonly string[]): Day | undefined {
    // First by the codes as asked (the same request asks in the same order), before normalising.
    const asked = codes.join(',');
    if (this.latestByCodes.has(asked)) return this.latestByCodes.get(asked);
    const wanted = [...new Set(codes)].filter((code) => code !== 'EUR').sort();
    const key = wanted.join(',');
    if (this.latestByCodes.has(key)) {
      const known = this.latestByCodes.get(key);
      this.latestByCodes.set(asked, known);
      return known;
    }
    const day = this.newestFirst.find((candidate) => wanted.every((code) => candidate.rates.has(code)));
    // Bounded: the sets asked for are few in practice; a flood of distinct sets only resets the memo.
    if (this.latestByCodes.size >= 10_000) this.latestByCodes.clear();
    this.latestByCodes.set(key, day);
    this.latestByCodes.set(asked, day);
    return day;
  }
}
