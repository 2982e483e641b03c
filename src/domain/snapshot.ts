import type { Day } from './day.js';
import type { StoredSpan } from './source-values.js';

/**
 * An immutable view of every ingested day, restricted to the tracked currencies. Requests read
 * one snapshot from start to end; a refresh builds a new one, so no answer mixes two versions.
 */
export class RatesSnapshot {
  private readonly byDate: ReadonlyMap<string, Day>;
  /** Oldest first: ranges read it forwards, "latest" backwards from `today`. */
  private readonly oldestFirst: readonly Day[];
  /** By code: the positions in oldestFirst of the days quoting it, made in pieces (indexPiece) or on first use. */
  private positionsByCode: ReadonlyMap<string, Int32Array> | undefined;
  /** The index being made, where indexPiece left it. */
  private indexing: Generator<void, ReadonlyMap<string, Int32Array>> | undefined;
  /** latestWith's answers for this snapshot, by the sorted set of codes asked for. */
  private readonly latestByCodes = new Map<string, Day | undefined>();

  /**
   * `today`: the current UTC date when the snapshot was made. Some banks publish the next day's
   * rates in advance (DECISIONS §9): such a day is served by date and in ranges, but "latest"
   * never picks a day after `today`.
   */
  private constructor(
    days: Map<string, Day>,
    readonly version: number,
    readonly today: string | undefined,
    /** What is stored of each enabled source, by id: every code, served or not, and its first and last day. */
    private readonly spans: ReadonlyMap<string, StoredSpan>,
  ) {
    this.byDate = days;
    this.oldestFirst = [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  static empty(): RatesSnapshot {
    return new RatesSnapshot(new Map(), 0, undefined, new Map());
  }

  /**
   * A new snapshot in which the given days (each whole) replace the ones held on their dates, and
   * `spans` (when given) the sources' spans.
   */
  withDays(days: Iterable<Day>, version: number, today?: string, spans: ReadonlyMap<string, StoredSpan> = this.spans): RatesSnapshot {
    const merged = new Map(this.byDate);
    for (const day of days) merged.set(day.date, day);
    return new RatesSnapshot(merged, version, today, spans);
  }

  /** What is stored of an enabled source (GET /sources); undefined before its first ingestion. */
  spanOf(source: string): StoredSpan | undefined {
    return this.spans.get(source);
  }

  get isEmpty(): boolean {
    return this.oldestFirst.length === 0;
  }

  get dayCount(): number {
    return this.oldestFirst.length;
  }

  /** Every ingested date, newest first. */
  get datesNewestFirst(): string[] {
    return this.oldestFirst.map((day) => day.date).reverse();
  }

  day(date: string): Day | undefined {
    return this.byDate.get(date);
  }

  /** The days from `start` to `end` (both included; undefined: to the newest), oldest first. */
  daysBetween(start: string, end: string | undefined): readonly Day[] {
    const from = this.countBefore(start, false);
    const to = end === undefined ? this.oldestFirst.length : this.countBefore(end, true);
    return from < to ? this.oldestFirst.slice(from, to) : [];
  }

  /**
   * The first and the last day from `start` to `end` (undefined: to the newest) on which every
   * one of `codes` has a rate; undefined when there is none. Found by binary searches in the
   * days each code is quoted on, so a fluctuation reads two days per currency, not every day.
   */
  firstAndLastWith(codes: readonly string[], start: string, end: string | undefined): [Day, Day] | undefined {
    const lists = codes.map((code) => this.positionsOf(code));
    const from = this.countBefore(start, false);
    const to = end === undefined ? this.oldestFirst.length : this.countBefore(end, true);
    const first = firstInAll(lists, from, to);
    if (first === -1) return undefined;
    return [this.oldestFirst[first]!, this.oldestFirst[lastInAll(lists, from, to)]!];
  }

  private positionsOf(code: string): Int32Array {
    while (!this.indexPiece());
    return this.positionsByCode!.get(code) ?? NO_POSITIONS;
  }

  /**
   * Makes the next piece of the index by code (INDEXED_PER_PIECE days); true once it is made. A
   * refresh calls it between turns of the event loop, so that no answer pays the whole index at
   * once; an answer that needs it sooner makes the rest itself.
   */
  indexPiece(): boolean {
    if (this.positionsByCode) return true;
    const step = (this.indexing ??= this.indexByCode()).next();
    if (step.done) this.positionsByCode = step.value;
    return step.done === true;
  }

  /**
   * Every code's positions, in one pass over the days (a pass per code read every day's codes
   * once per currency), pausing every INDEXED_PER_PIECE days. Bounded by the tracked codes: only
   * those a day has are listed.
   */
  private *indexByCode(): Generator<void, ReadonlyMap<string, Int32Array>> {
    const lists = new Map<string, number[]>();
    for (const [i, day] of this.oldestFirst.entries()) {
      for (const code of day.codes()) {
        const list = lists.get(code);
        if (list === undefined) lists.set(code, [i]);
        else list.push(i);
      }
      if ((i + 1) % INDEXED_PER_PIECE === 0) yield;
    }
    return new Map([...lists].map(([code, list]) => [code, Int32Array.from(list)]));
  }

  /** How many days come before `date` (with `orAt`, before it or on it): a binary search. */
  private countBefore(date: string, orAt: boolean): number {
    let low = 0;
    let high = this.oldestFirst.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = this.oldestFirst[middle]!.date;
      if (candidate < date || (orAt && candidate === date)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The last day on or before `date` on which every given currency has a rate (DECISIONS §16). */
  lastWithOnOrBefore(codes: readonly string[], date: string): Day | undefined {
    const last = lastInAll(codes.map((code) => this.positionsOf(code)), 0, this.countBefore(date, true));
    return last === -1 ? undefined : this.oldestFirst[last];
  }

  /** The most recent day, not after `today`, on which every given currency has a rate. */
  latestWith(codes: readonly string[]): Day | undefined {
    // First by the codes as asked (the same request asks in the same order), before normalising.
    const asked = codes.join(',');
    if (this.latestByCodes.has(asked)) return this.latestByCodes.get(asked);
    const wanted = [...new Set(codes)].sort();
    const key = wanted.join(',');
    if (this.latestByCodes.has(key)) {
      const known = this.latestByCodes.get(key);
      this.latestByCodes.set(asked, known);
      return known;
    }
    let day: Day | undefined;
    for (let i = (this.today === undefined ? this.oldestFirst.length : this.countBefore(this.today, true)) - 1; i >= 0; i--) {
      const candidate = this.oldestFirst[i]!;
      if (wanted.every((code) => candidate.has(code))) {
        day = candidate;
        break;
      }
    }
    // Bounded: the sets asked for are few in practice; a flood of distinct sets only resets the memo.
    if (this.latestByCodes.size >= 10_000) this.latestByCodes.clear();
    this.latestByCodes.set(key, day);
    this.latestByCodes.set(asked, day);
    return day;
  }
}

const NO_POSITIONS = new Int32Array(0);
/** Days read per piece of the index: a few milliseconds' work. */
const INDEXED_PER_PIECE = 500;

/** The index of the first of the sorted `values` at or above `value`. */
function lowerBound(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The smallest position in [from, to) that every sorted list holds, or -1: each list in turn
 * moves the candidate up to its next position, until none moves it.
 */
function firstInAll(lists: readonly Int32Array[], from: number, to: number): number {
  let candidate = from;
  for (let moved = true; moved; ) {
    moved = false;
    for (const list of lists) {
      const at = list[lowerBound(list, candidate)];
      if (at === undefined || at >= to) return -1;
      if (at > candidate) [candidate, moved] = [at, true];
    }
  }
  return candidate;
}

/** The largest position in [from, to) that every sorted list holds, or -1 (firstInAll, downwards). */
function lastInAll(lists: readonly Int32Array[], from: number, to: number): number {
  let candidate = to - 1;
  for (let moved = true; moved; ) {
    moved = false;
    for (const list of lists) {
      const at = list[lowerBound(list, candidate + 1) - 1];
      if (at === undefined || at < from) return -1;
      if (at < candidate) [candidate, moved] = [at, true];
    }
  }
  return candidate;
}
