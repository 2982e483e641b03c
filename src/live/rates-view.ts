import { BlendedDay } from '../domain/blended-day.js';
import type { TrackedCurrencies } from '../domain/currencies.js';
import type { EncodedDay } from '../domain/day-encoding.js';
import { ecbDay, RatesSnapshot, type Day } from '../domain/snapshot.js';
import { storedSourceDay, type SourceDayValues } from '../domain/source-day.js';
import { spanOfEncodedDays, type EncodedSourceDay, type StoredSpan } from '../domain/source-values.js';
import type { RatesStore, SourceRatesStore } from '../storage/ports.js';

/** The ECB's id: its figures live in the rates store, every other source's in the source rates store. */
const ECB = 'ecb';

interface Written {
  ecb: { days: EncodedDay[]; version: number } | undefined;
  others: { days: EncodedSourceDay[]; version: number } | undefined;
}

/** An enabled source as the view needs it: its id and the currency it quotes against. */
export interface ServedSource {
  id: string;
  base: string;
}

/**
 * The snapshot every request reads, from every enabled source (DECISIONS §9), with what is stored
 * of each (GET /sources). Refreshing asks each store for its version and, only when it moved, for
 * what was written since: a daily run costs a small query or two. With only the ECB enabled every
 * day is the ECB's own, as it always was.
 */
export class RatesView {
  private current = RatesSnapshot.empty();
  /** Each snapshot's number, for what is kept by data version (http/response-cache.ts). */
  private generation = 0;
  private ecbVersion = 0;
  private othersVersion = 0;
  private readonly ecbDays = new Map<string, EncodedDay>();
  /** The other sources' days by source, then by date, each as the store encoded it. */
  private readonly otherDays = new Map<string, Map<string, EncodedSourceDay>>();
  /** What is stored of each enabled source, kept up to date by each load (GET /sources). */
  private readonly spans = new Map<string, StoredSpan>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly stores: { rates: RatesStore; sourceRates: SourceRatesStore },
    private readonly tracked: TrackedCurrencies,
    /** Enabled sources, highest priority first (default: the ECB alone). */
    private readonly sources: readonly ServedSource[] = [{ id: ECB, base: 'EUR' }],
    /** The current UTC date (YYYY-MM-DD): "latest" never picks a day after it. */
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
  ) {}

  get snapshot(): RatesSnapshot {
    return this.current;
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
    let written: Written;
    try {
      written = await this.writtenSince();
    } catch (error) {
      // Stores out of reach: what is held is still served (DECISIONS §12), and "latest" still
      // follows the date, or a day published in advance would stay refused for the outage.
      if (today !== this.current.today) this.current = this.current.withDays([], ++this.generation, today, new Map(this.spans));
      throw error;
    }
    const { ecb, others } = written;
    if (!ecb && !others && today === this.current.today) return false;
    const touched = new Set<string>();
    if (ecb) {
      for (const day of ecb.days) {
        this.ecbDays.set(day.date, day);
        touched.add(day.date);
      }
      this.ecbVersion = ecb.version;
      this.spanned(ECB, this.ecbDays.values());
    }
    if (others) {
      const sourcesMoved = new Set<string>();
      for (const day of others.days) {
        // Another bank's days stay in the store until SOURCES names it.
        if (!this.sources.some((source) => source.id === day.source)) continue;
        let ofSource = this.otherDays.get(day.source);
        if (!ofSource) this.otherDays.set(day.source, (ofSource = new Map()));
        ofSource.set(day.date, day);
        touched.add(day.date);
        sourcesMoved.add(day.source);
      }
      for (const source of sourcesMoved) this.spanned(source, this.otherDays.get(source)!.values());
      this.othersVersion = others.version;
    }
    this.current = this.current.withDays([...touched].map((date) => this.dayOn(date)), ++this.generation, today, new Map(this.spans));
    return ecb !== undefined || others !== undefined;
  }

  /**
   * What each store wrote since the last load (undefined: its version stayed). Only read here:
   * nothing is kept until both stores have answered, so a failed load is retried whole.
   */
  private async writtenSince(): Promise<Written> {
    const ecbEnabled = this.sources.some((source) => source.id === ECB);
    const othersEnabled = this.sources.some((source) => source.id !== ECB);
    const [ecbVersion, othersVersion] = await Promise.all([
      ecbEnabled ? this.stores.rates.version() : this.ecbVersion,
      othersEnabled ? this.stores.sourceRates.version() : this.othersVersion,
    ]);
    const [ecb, others] = await Promise.all([
      ecbVersion !== this.ecbVersion ? this.stores.rates.daysSince(this.ecbVersion) : undefined,
      othersVersion !== this.othersVersion ? this.stores.sourceRates.daysSince(this.othersVersion) : undefined,
    ]);
    return { ecb, others };
  }

  /** Keeps a source's span, from the whole days held of it. */
  private spanned(source: string, days: Iterable<{ date: string; rates: string }>): void {
    const span = spanOfEncodedDays(days);
    if (span) this.spans.set(source, span);
  }

  /** A day from every enabled source with values on it: the ECB's own day when it is the only one. */
  private dayOn(date: string): Day {
    const ecb = this.ecbDays.get(date);
    const others = this.sources.filter(({ id }) => id !== ECB && this.otherDays.get(id)?.has(date));
    if (ecb && others.length === 0) return ecbDay(ecb, this.tracked.codes);
    const layers: SourceDayValues[] = [];
    for (const { id, base } of this.sources) {
      const encoded = id === ECB ? ecb?.rates : this.otherDays.get(id)?.get(date)?.rates;
      if (encoded !== undefined) layers.push(storedSourceDay(id, base, id === ECB ? 'units-per-base' : 'base-per-unit', encoded));
    }
    return new BlendedDay(date, layers, this.tracked.codes);
  }
}
