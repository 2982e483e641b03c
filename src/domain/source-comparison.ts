import { differsByMorePct, relativeDifferencePct, roundedRatio, type Decimal } from './money.js';
import { eurRates, type SourceDayValues } from './source-day.js';

/** One currency as two sources give it per 1 EUR, rounded once for display, and how far b lies from a. */
export interface SourcePairComparison {
  currency: string;
  sourceA: string;
  rateA: string;
  sourceB: string;
  rateB: string;
  /** (b − a) / a × 100 from the exact rates. */
  differencePct: string;
  /** Whether |b − a| / a × 100 exceeds the threshold asked for, exactly. */
  beyondThreshold: boolean;
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every currency two of `days` (in priority order) both give per 1 EUR: one line per pair of
 * sources, a before b in priority order, sorted by currency and then by pair; each marked when the
 * two differ by more than `thresholdPct` percent.
 */
export function compareSources(days: readonly SourceDayValues[], thresholdPct: Decimal): SourcePairComparison[] {
  const rated = days.flatMap((day) => {
    const rates = eurRates(day);
    return rates ? [{ source: day.source, rates }] : [];
  });
  const codes = [...new Set(rated.flatMap(({ rates }) => [...rates.keys()]))].sort(byCode);
  const lines: SourcePairComparison[] = [];
  for (const currency of codes) {
    for (let i = 0; i < rated.length; i++) {
      const a = rated[i]!.rates.get(currency);
      if (a === undefined) continue;
      for (let j = i + 1; j < rated.length; j++) {
        const b = rated[j]!.rates.get(currency);
        if (b === undefined) continue;
        lines.push({
          currency,
          sourceA: rated[i]!.source,
          rateA: roundedRatio(a),
          sourceB: rated[j]!.source,
          rateB: roundedRatio(b),
          differencePct: relativeDifferencePct(a, b),
          beyondThreshold: differsByMorePct(a, b, thresholdPct),
        });
      }
    }
  }
  return lines;
}

/** The currencies with at least one pair of sources beyond the threshold, each once, alphabetical. */
export function disagreeingCodes(lines: readonly SourcePairComparison[]): string[] {
  return [...new Set(lines.filter((line) => line.beyondThreshold).map((line) => line.currency))];
}
