import type { Ratio } from './money.js';
import { gives, rateOf, type SourceDayValues } from './source-day.js';

/**
 * What the days of one snapshot are served in: `pivot`, the currency every rate is per one unit
 * of (EUR, DECISIONS §9; a source's own base for `source=ID`, DECISIONS §15, where answers only
 * ever divide two rates of one day, so the pivot cancels out), the tracked codes, and with
 * SOURCES=all the source ranked ahead of every home bank (the ECB).
 */
export interface DayTerms {
  readonly pivot: string;
  readonly tracked: ReadonlySet<string>;
  readonly leader?: string | undefined;
}

/**
 * The rates of one day: the values of each source that gives some that day, each in its own
 * terms, highest priority first. A tracked code is served by the first source quoting both it
 * and the pivot that day (with a leader: the leader, then the code's home bank, the one whose
 * base it is, then the rest); its rate is that source's figures divided exactly, computed when
 * read, so a long history costs no more than its texts. One source alone is one layer.
 */
export class Day {
  /** The layer of a day one source gives, held without an array or a map: the ECB's whole history is one layer a day. */
  private readonly only: SourceDayValues | undefined;
  /** The layers of a day several sources give, highest priority first. */
  private readonly layers: readonly SourceDayValues[];
  /** The source serving each code on a day of several layers, found on first use. */
  private served: ReadonlyMap<string, SourceDayValues> | undefined;

  /** `layers`: the day's values of each source that gives some, highest priority first. */
  constructor(
    readonly date: string,
    layers: readonly SourceDayValues[],
    private readonly terms: DayTerms,
  ) {
    this.only = layers.length === 1 ? layers[0] : undefined;
    this.layers = layers.length === 1 ? NO_LAYERS : layers;
  }

  /** Whether this day is `layer`'s alone, served in `pivot`: the same day a snapshot of that source alone holds. */
  isAlone(layer: SourceDayValues, pivot: string): boolean {
    return this.only === layer && this.terms.pivot === pivot;
  }

  /** Whether the day has a rate for `code`: tracked, and given by a source quoting the pivot. */
  has(code: string): boolean {
    const { only, terms } = this;
    if (only === undefined) return this.servedBy.has(code);
    return gives(only, code) && gives(only, terms.pivot) && terms.tracked.has(code);
  }

  /** The tracked codes it has a rate for, the pivot among them. */
  codes(): string[] {
    const { only, terms } = this;
    if (only === undefined) return [...this.servedBy.keys()];
    // `has` for every code the one layer gives at once: served when tracked, if it gives the pivot.
    return gives(only, terms.pivot) ? codesOf(only).filter((code) => terms.tracked.has(code)) : [];
  }

  /** How many tracked codes it has a rate for, the pivot among them (counted when asked: a metric reads it). */
  get size(): number {
    return this.codes().length;
  }

  /** The rate of `code` per one unit of the pivot, exact; undefined when the day has none. */
  rate(code: string): Ratio | undefined {
    const { only, terms } = this;
    if (only === undefined) {
      const layer = this.servedBy.get(code);
      return layer === undefined ? undefined : rateOf(layer, terms.pivot, code);
    }
    // The only layer needs no rule, nor a map: rateOf finds whether it gives both.
    const rate = rateOf(only, terms.pivot, code);
    return rate !== undefined && terms.tracked.has(code) ? rate : undefined;
  }

  /** The source serving each code on a day of several layers (only tracked codes, by sources quoting the pivot). */
  private get servedBy(): ReadonlyMap<string, SourceDayValues> {
    return (this.served ??= this.assign());
  }

  private assign(): Map<string, SourceDayValues> {
    const { pivot, tracked, leader } = this.terms;
    const served = new Map<string, SourceDayValues>();
    const quoting = this.layers.filter((layer) => gives(layer, pivot));
    const take = (layer: SourceDayValues, code: string) => {
      if (tracked.has(code) && !served.has(code)) served.set(code, layer);
    };
    if (leader !== undefined) {
      // Per code, since no one list ranks every home bank first (the Bank of Russia quotes KZT, the
      // National Bank of Kazakhstan RUB): the leader's codes, then each bank's own currency.
      for (const layer of quoting) if (layer.source === leader) for (const code of codesOf(layer)) take(layer, code);
      for (const layer of quoting) take(layer, layer.base);
    }
    for (const layer of quoting) for (const code of codesOf(layer)) take(layer, code);
    return served;
  }
}

const NO_LAYERS: readonly SourceDayValues[] = [];

/** The codes a source gives that day, its base among them. */
function codesOf(layer: SourceDayValues): string[] {
  return [layer.base, ...layer.values.keys()];
}
