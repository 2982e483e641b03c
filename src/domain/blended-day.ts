import type { Ratio } from './money.js';
import type { Day } from './snapshot.js';
import { eurQuotedCodes, eurRate, quotesEur, type SourceDayValues } from './source-day.js';

/**
 * One day as several sources give it (DECISIONS §9): the rate of each currency per 1 EUR comes
 * from the first source, in SOURCES order, that has both it and EUR that day, as the exact
 * rational P(EUR) / P(c). Which source serves which code is found on first use and kept; the
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
  ) {}

  private get servedBy(): ReadonlyMap<string, SourceDayValues> {
    return (this.served ??= this.assign());
  }

  private assign(): Map<string, SourceDayValues> {
    const served = new Map<string, SourceDayValues>();
    for (const layer of this.layers.filter(quotesEur)) {
      if (!served.has('EUR')) served.set('EUR', layer);
      for (const code of eurQuotedCodes(layer)) if (this.tracked.has(code) && !served.has(code)) served.set(code, layer);
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
