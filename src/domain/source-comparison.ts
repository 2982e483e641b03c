import { decimal, ONE, ratio, relativeDifferencePct, roundedRatio, type Ratio } from './money.js';

/**
 * One source's stored values of one day. `units-per-base`: the ECB's figures, units of c per 1
 * EUR. `base-per-unit`: P(c), units of the source's base per one unit of c (DECISIONS §9).
 */
export interface SourceDayValues {
  source: string;
  base: string;
  terms: 'units-per-base' | 'base-per-unit';
  values: ReadonlyMap<string, string>;
}

/**
 * The source's rates per 1 EUR that day, exact: the ECB's own figures, or P(EUR) / P(c) (the
 * source's base included, P(base) = 1). Undefined when the source has no EUR that day.
 */
export function eurRates(day: SourceDayValues): Map<string, Ratio> | undefined {
  const rates = new Map<string, Ratio>();
  if (day.terms === 'units-per-base') {
    if (day.base !== 'EUR') return undefined;
    for (const [code, value] of day.values) if (code !== 'EUR') rates.set(code, ratio(decimal(value), ONE));
    return rates;
  }
  const eurText = day.base === 'EUR' ? '1' : day.values.get('EUR');
  if (eurText === undefined) return undefined;
  const eur = decimal(eurText);
  if (day.base !== 'EUR') rates.set(day.base, ratio(eur, ONE));
  for (const [code, value] of day.values) if (code !== 'EUR') rates.set(code, ratio(eur, decimal(value)));
  return rates;
}

/** One currency as two sources give it per 1 EUR, rounded once for display, and how far b lies from a. */
export interface SourcePairComparison {
  currency: string;
  sourceA: string;
  rateA: string;
  sourceB: string;
  rateB: string;
  /** (b − a) / a × 100 from the exact rates. */
  differencePct: string;
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every currency two of `days` (in priority order) both give per 1 EUR: one line per pair of
 * sources, a before b in priority order, sorted by currency and then by pair.
 */
export function compareSources(days: readonly SourceDayValues[]): SourcePairComparison[] {
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
        });
      }
    }
  }
  return lines;
}
