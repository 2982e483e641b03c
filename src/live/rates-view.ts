import { BlendedDay } from '../domain/blended-day.js';
import type { TrackedCurrencies } from '../domain/currencies.js';
import { ecbDay, RatesSnapshot, type Day } from '../domain/snapshot.js';
import { SourceAloneDay } from '../domain/source-alone-day.js';
import { storedSourceDay, type SourceDayValues } from '../domain/source-day.js';
import { spanOfEncodedDays, type EncodedSourceDay, type StoredSpan } from '../domain/source-values.js';
import type { RatesStore } from '../storage/ports.js';

/** An enabled source as the view needs it: its id, the currency it quotes against, and the terms of its values. */
export interface ServedSource {
  id: string;
  base: string;
  terms: SourceDayValues['terms'];
}

/** The ECB alone, what SOURCES enables by default. */
const ECB_ALONE: readonly ServedSource[] = [{ id: 'ecb', base: 'EUR', terms: 'units-per-base' }];

/**
 * The snapshot every request reads, from every enabled source (DECISIONS §9), with what is stored
 * of each (GET /sources). Refreshing asks the store for its version and, only when it moved, for
 * the days written since: a daily run costs a small query or two. A day only one source gives in
 * EUR's own terms (the ECB's, with the ECB alone enabled: every day) is served from its figures
 * as they are.
 */
export class RatesView {
  private current = RatesSnapshot.empty();
  /** Each snapshot's number, for what is kept by data version (http/response-cache.ts). */
  private generation = 0;
  private version = 0;
  /** The enabled sources' days by source, then by date, each as the store encoded it. */
  private readonly days = new Map<string, Map<string, EncodedSourceDay>>();
  /** What is stored of each enabled source, kept up to date by each load (GET /sources). */
  private readonly spans = new Map<string, StoredSpan>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Each stored day's values, decoded on first use and read by both the blend and the source's own days. */
  private readonly values = new WeakMap<EncodedSourceDay, SourceDayValues>();
  /** Each source's own snapshot (snapshotOf), made on first use, for the data version of `current`. */
  private alone = { version: -1, bySource: new Map<string, RatesSnapshot>() };

  constructor(
    private readonly rates: RatesStore,
    private readonly tracked: TrackedCurrencies,
    /** Enabled sources, highest priority first (default: the ECB alone). */
    private readonly sources: readonly ServedSource[] = ECB_ALONE,
    /** The current UTC date (YYYY-MM-DD): "latest" never picks a day after it. */
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
    /** SOURCES=all (DECISIONS §15): the source each code's home bank ranks right after (the ECB). */
    private readonly homeFirstAfter?: string,
  ) {
    for (const { id } of sources) this.days.set(id, new Map());
  }

  get snapshot(): RatesSnapshot {
    return this.current;
  }

  /**
   * The rates of one enabled source alone (DECISIONS §15, `source=ID`), for the data of `snapshot`.
   * Made on first use for each data version from the days already held: the texts and their
   * decoded values are shared with the blend, not copied, and a source never asked for costs nothing.
   */
  snapshotOf(source: string): RatesSnapshot {
    if (this.alone.version !== this.current.version) this.alone = { version: this.current.version, bySource: new Map() };
    let snapshot = this.alone.bySource.get(source);
    if (snapshot === undefined) {
      const served = this.sources.find(({ id }) => id === source);
      if (served === undefined) throw new Error(`source ${source} is not enabled`);
      const days = [...this.days.get(source)!.values()].map((day) => this.aloneDay(served, day));
      snapshot = RatesSnapshot.empty().withDays(days, this.current.version, this.current.today);
      this.alone.bySource.set(source, snapshot);
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
      if (today !== this.current.today) this.current = this.current.withDays([], ++this.generation, today, new Map(this.spans));
      throw error;
    }
    if (!written && today === this.current.today) return false;
    const touched = new Set<string>();
    if (written) {
      const sourcesMoved = new Set<string>();
      for (const day of written.days) {
        // A source's days stay in the store until SOURCES names it.
        const ofSource = this.days.get(day.source);
        if (ofSource === undefined) continue;
        ofSource.set(day.date, day);
        touched.add(day.date);
        sourcesMoved.add(day.source);
      }
      for (const source of sourcesMoved) {
        const span = spanOfEncodedDays(this.days.get(source)!.values());
        if (span) this.spans.set(source, span);
      }
      this.version = written.version;
    }
    // Only another source's days (one SOURCES does not name) moved: nothing served changed.
    if (touched.size === 0 && today === this.current.today) return false;
    this.current = this.current.withDays([...touched].map((date) => this.dayOn(date)), ++this.generation, today, new Map(this.spans));
    return touched.size > 0;
  }

  /**
   * A day from every enabled source with values on it, highest priority first. Figures per 1 EUR
   * from one source alone (the ECB's, with no bank beside it that day) are the day's rates as they
   * stand: there is no source to choose between.
   */
  private dayOn(date: string): Day {
    const given = this.sources.flatMap((source) => {
      const encoded = this.days.get(source.id)!.get(date);
      return encoded === undefined ? [] : [{ source, encoded }];
    });
    const only = given.length === 1 ? given[0]! : undefined;
    if (only && inEurTerms(only.source)) return ecbDay(only.encoded, this.tracked.codes);
    const layers = given.map(({ source, encoded }) => this.valuesOf(source, encoded));
    return new BlendedDay(date, layers, this.tracked.codes, this.homeFirstAfter);
  }

  /**
   * A source's own day. Where it alone gives that day, in EUR's own terms (the ECB's history), the
   * blend's day is its figures as they stand (dayOn) and is shared, decoded once.
   */
  private aloneDay(source: ServedSource, day: EncodedSourceDay): Day {
    const alone = inEurTerms(source) && this.sources.every(({ id }) => id === source.id || !this.days.get(id)!.has(day.date));
    return (alone ? this.current.day(day.date) : undefined) ?? new SourceAloneDay(day.date, this.valuesOf(source, day), this.tracked.codes);
  }

  /** A stored day's values, one object per stored day: decoded once however many days read them. */
  private valuesOf({ id, base, terms }: ServedSource, day: EncodedSourceDay): SourceDayValues {
    let values = this.values.get(day);
    if (values === undefined) this.values.set(day, (values = storedSourceDay(id, base, terms, day.rates)));
    return values;
  }
}

/** Whether a source's figures are units per 1 EUR, the rates' own terms (the ECB's). */
function inEurTerms({ base, terms }: ServedSource): boolean {
  return terms === 'units-per-base' && base === 'EUR';
}
