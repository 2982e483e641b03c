import type { Ratio } from './money.js';
import type { Day } from './snapshot.js';
import { eurQuotedCodes, eurRate, quotesEur, type SourceDayValues } from './source-day.js';

/**
 * One day as several sources give it (DECISIONS §9): the rate of each currency per 1 EUR comes
 * from the first source, in SOURCES order, that has both it and EUR that day, as the exact
 * rational P(EUR) / P(c). With SOURCES=all (DECISIONS §15) the order is per code: `homeFirstAfter`
 * (the ECB), then the code's home bank (the one whose base it is), then the list. Which source serves which code is found on first use and kept; the
 * rates are computed when read, as for the ECB's days, so a bank's long history costs no more
 * than its texts.
 */
export class BlendedDay implements Day {
  private served: ReadonlyMap<string, SourceDayValues> | undefined;

  /** `layers`: that day's values of each source that has some, highest priority first. */
  constructor(
    readonly date: string,
    private readonly layers: readonly SourceDayValues[],
    private readonly tracked: ReadonlySet<string>,
    /** SOURCES=all: the source ahead of every home bank (the ECB); undefined: SOURCES order alone. */
    private readonly homeFirstAfter?: string,
  ) {}

  private get servedBy(): ReadonlyMap<string, SourceDayValues> {
    return (this.served ??= this.assign());
  }

  private assign(): Map<string, SourceDayValues> {
    const served = new Map<string, SourceDayValues>();
    const quoting = this.layers.filter(quotesEur);
    const take = (layer: SourceDayValues, code: string) => {
      if (this.tracked.has(code) && !served.has(code)) served.set(code, layer);
    };
    if (this.homeFirstAfter !== undefined) {
      // Per code, since no one list ranks every home bank first (the Bank of Russia quotes KZT, the
      // National Bank of Kazakhstan RUB): the leader's codes, then each bank's own currency.
      for (const layer of quoting) if (layer.source === this.homeFirstAfter) for (const code of eurQuotedCodes(layer)) take(layer, code);
      for (const layer of quoting) take(layer, layer.base);
    }
    for (const layer of quoting) {
      if (!served.has('EUR')) served.set('EUR', layer);
      for (const code of eurQuotedCodes(layer)) take(layer, code);
    }
    return served;
  }

  has(code: string): boolean {
    return this.servedBy.has(code);
  }

  get size(): number {
    const untrackedEur = this.servedBy.has('EUR') && !this.tracked.has('EUR');
    return this.servedBy.size - (untrackedEur ? 1 : 0);
  }

  rate(code: string): Ratio | undefined {
    const layer = this.servedBy.get(code);
    return layer === undefined ? undefined : eurRate(layer, code);
  }
}
