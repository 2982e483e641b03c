import { setImmediate } from 'node:timers/promises';
import type { TrackedCurrencies } from '../domain/currencies.js';
import { Day, type DayTerms } from '../domain/day.js';
import { RatesSnapshot } from '../domain/snapshot.js';
import { StoredSourceDay, type DaySource } from '../domain/source-day.js';
import { spanOfEncodedDays, type EncodedSourceDay, type StoredSpan } from '../domain/source-values.js';
import type { RatesStore } from '../storage/ports.js';

/** An enabled source as the view needs it: its id, the currency it quotes against, and the terms of its values. */
export type ServedSource = DaySource;

/** The ECB alone, what SOURCES enables by default. */
const ECB_ALONE: readonly ServedSource[] = [{ id: 'ecb', base: 'EUR', terms: 'units-per-base' }];

/**
 * The snapshot every request reads, from every enabled source (DECISIONS §9), with what is stored
 * of each (GET /sources). Refreshing asks the store for its version and, only when it moved, for
 * the days written since: a daily run costs a small query or two. Every day, blended or of one
 * source alone, is one Day over the sources' stored values, held once however many days read them.
 */
export class RatesView {
  private current = RatesSnapshot.empty();
  /** Each snapshot's number, for what is kept by data version (http/response-cache.ts). */
  private generation = 0;
  private version = 0;
  /** Each enabled source with its days by date, each as the store encoded it, read in place. */
  private readonly days = new Map<string, { source: ServedSource; byDate: Map<string, StoredSourceDay> }>();
  /** What is stored of each enabled source, kept up to date by each load (GET /sources). */
  private readonly spans = new Map<string, StoredSpan>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Each source's own snapshot (snapshotOf), made on first use, for the data version of `current`. */
  private alone = { version: -1, bySource: new Map<string, RatesSnapshot>() };
  /** How the served days are blended: rates per 1 EUR, SOURCES order (DECISIONS §9, §15). */
  private readonly blend: DayTerms;
  /** The codes a stored day gives: only tracked ones are served, and the blend divides by EUR. */
  private readonly served: (code: string) => boolean;

  constructor(
    private readonly rates: RatesStore,
    private readonly tracked: TrackedCurrencies,
    /** Enabled sources, highest priority first (default: the ECB alone). */
    private readonly sources: readonly ServedSource[] = ECB_ALONE,
    /** The current UTC date (YYYY-MM-DD): "latest" never picks a day after it. */
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
    /** SOURCES=all (DECISIONS §15): the source each code's home bank ranks right after (the ECB). */
    homeFirstAfter?: string,
  ) {
    // A small object of its own, read for every rate: an adapter carries far more than these.
    for (const { id, base, terms, termsByCode } of sources) this.days.set(id, { source: { id, base, terms, termsByCode }, byDate: new Map() });
    this.blend = { pivot: 'EUR', tracked: tracked.codes, leader: homeFirstAfter };
    const { codes } = tracked;
    this.served = (code) => code === 'EUR' || codes.has(code);
  }

  get snapshot(): RatesSnapshot {
    return this.current;
  }

  /**
   * The rates of one enabled source alone (DECISIONS §15, `source=ID`), for the data of `snapshot`.
   * Made on first use for each data version from the days already held: their texts are shared
   * with the blend, not copied, and a source never asked for costs nothing. Its index is then
   * made in turns, as the blend's is.
   */
  snapshotOf(source: string): RatesSnapshot {
    if (this.alone.version !== this.current.version) this.alone = { version: this.current.version, bySource: new Map() };
    let snapshot = this.alone.bySource.get(source);
    if (snapshot === undefined) {
      const held = this.days.get(source);
      if (held === undefined) throw new Error(`source ${source} is not enabled`);
      // In its own base's terms: a source without EUR that day still crosses its own figures.
      const terms: DayTerms = { pivot: held.source.base, tracked: this.tracked.codes };
      const days = [...held.byDate.values()].map((day) => {
        const blended = this.current.day(day.date);
        // The blend's day when it is this source's alone in the same terms (the ECB's, alone enabled): one object, not a second.
        return blended?.isAlone(day, terms.pivot) ? blended : new Day(day.date, [day], terms);
      });
      snapshot = RatesSnapshot.empty().withDays(days, this.current.version, this.current.today);
      this.alone.bySource.set(source, snapshot);
      void this.indexInTurns(snapshot, () => this.alone.bySource.get(source) === snapshot);
    }
    return snapshot;
  }

  /**
   * True when new data was loaded. A new UTC date also makes a new snapshot ("latest" depends on
   * it). One load at a time: the refresher and a scheduled ingestion both ask, each builds on the last.
   */
  refresh(): Promise<boolean> {
    const run = this.queue.then(() => this.load());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<boolean> {
    const today = this.today();
    let written: { days: EncodedSourceDay[]; version: number } | undefined;
    try {
      // Only read here: nothing is kept until the store has answered, so a failed load is retried whole.
      const version = await this.rates.version();
      written = version === this.version ? undefined : await this.rates.daysSince(this.version);
    } catch (error) {
      // Store out of reach: what is held is still served (DECISIONS §12), and "latest" still
      // follows the date, or a day published in advance would stay refused for the outage.
      if (today !== this.current.today) this.serve(this.current.withDays([], ++this.generation, today, new Map(this.spans)));
      throw error;
    }
    if (!written && today === this.current.today) return false;
    const touched = new Set<string>();
    if (written) {
      const sourcesMoved = new Set<string>();
      for (const day of written.days) {
        // A source's days stay in the store until SOURCES names it.
        const held = this.days.get(day.source);
        if (held === undefined) continue;
        held.byDate.set(day.date, new StoredSourceDay(held.source, day.date, day.rates, this.served));
        touched.add(day.date);
        sourcesMoved.add(day.source);
      }
      for (const source of sourcesMoved) {
        const span = spanOfEncodedDays(this.days.get(source)!.byDate.values());
        if (span) this.spans.set(source, span);
      }
      this.version = written.version;
    }
    // Only another source's days (one SOURCES does not name) moved: nothing served changed.
    if (touched.size === 0 && today === this.current.today) return false;
    this.serve(this.current.withDays([...touched].map((date) => this.dayOn(date)), ++this.generation, today, new Map(this.spans)));
    return touched.size > 0;
  }

  /** `snapshot` served from now on, its index made in turns as it serves. */
  private serve(snapshot: RatesSnapshot): void {
    this.current = snapshot;
    void this.indexInTurns(snapshot, () => this.current === snapshot);
  }

  /**
   * A snapshot's index by code made a piece per turn of the event loop, from the turn after it
   * was made, while `served` (a newer one has not replaced it): the first range or fluctuation on
   * it would otherwise make it all in one turn, tens of milliseconds.
   */
  private async indexInTurns(snapshot: RatesSnapshot, served: () => boolean): Promise<void> {
    do await setImmediate();
    while (served() && !snapshot.indexPiece());
  }

  /** A day from every enabled source with values on it, highest priority first. */
  private dayOn(date: string): Day {
    return new Day(date, this.sources.flatMap(({ id }) => this.days.get(id)!.byDate.get(date) ?? []), this.blend);
  }
}
