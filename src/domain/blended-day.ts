import type { Ratio } from './money.js';
import type { Day } from './snapshot.js';
import { eurRates, type SourceDayValues } from './source-comparison.js';

/**
 * One day as several sources give it (DECISIONS §9): the rate of each currency per 1 EUR comes
 * from the first source, in SOURCES order, that has both it and EUR that day, as the exact
 * rational P(EUR) / P(c). Computed on first use and kept: such days are the few days other banks
 * publish, not the ECB's whole history.
 */
export class BlendedDay implements Day {
  private blended: ReadonlyMap<string, Ratio> | undefined;

  /** `layers`: that day's values of each source that has some, highest priority first. */
  constructor(
    readonly date: string,
    private readonly layers: readonly SourceDayValues[],
    private readonly tracked: ReadonlySet<string>,
  ) {}

  private get rates(): ReadonlyMap<string, Ratio> {
    return (this.blended ??= this.blend());
  }

  private blend(): Map<string, Ratio> {
    const rates = new Map<string, Ratio>();
    for (const layer of this.layers) {
      const ofLayer = eurRates(layer);
      if (ofLayer === undefined) continue;
      rates.set('EUR', { num: 1n, den: 1n });
      for (const [code, rate] of ofLayer) if (this.tracked.has(code) && !rates.has(code)) rates.set(code, rate);
    }
    return rates;
  }

  has(code: string): boolean {
    return this.rates.has(code);
  }

  get size(): number {
    const untrackedEur = this.rates.has('EUR') && !this.tracked.has('EUR');
    return this.rates.size - (untrackedEur ? 1 : 0);
  }

  rate(code: string): Ratio | undefined {
    return this.rates.get(code);
  }
}
