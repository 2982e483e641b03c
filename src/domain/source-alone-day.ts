import { decimal, ONE, ratio, type Ratio } from './money.js';
import type { Day } from './snapshot.js';
import type { SourceDayValues } from './source-day.js';

/**
 * One source's day alone (DECISIONS §15, `source=ID`): each rate is units of the code per one
 * unit of the source's own base, the figure itself in `units-per-base` terms, 1 / P(c) in
 * `base-per-unit` terms. Every answer divides two rates of one day, so the base cancels out:
 * rate(B) / rate(A) = P(A) / P(B), the source's own cross, whether or not it quotes EUR.
 */
export class SourceAloneDay implements Day {
  private count: number | undefined;

  /** `day`: the source's values of that day, decoded once and shared with the blend's layers (live/rates-view.ts). */
  constructor(
    readonly date: string,
    private readonly day: SourceDayValues,
    private readonly tracked: ReadonlySet<string>,
  ) {}

  has(code: string): boolean {
    return this.tracked.has(code) && (code === this.day.base || this.day.values.has(code));
  }

  get size(): number {
    return (this.count ??= [this.day.base, ...this.day.values.keys()].filter((code) => this.has(code)).length);
  }

  rate(code: string): Ratio | undefined {
    if (!this.has(code)) return undefined;
    if (code === this.day.base) return ratio(ONE, ONE);
    const value = decimal(this.day.values.get(code)!);
    return this.day.terms === 'units-per-base' ? ratio(value, ONE) : ratio(ONE, value);
  }
}
