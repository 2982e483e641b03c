import { EncodedDayRates } from './day-encoding.js';
import { decimal, ONE, quotient, ratio, type Ratio } from './money.js';

/**
 * Which way a figure is written: `base-per-unit`, P(c) = units of the source's base per one unit
 * of c (DECISIONS §9); `units-per-base`, U(c) = units of c per one unit of the base (the ECB's per
 * 1 EUR; a bank's per 1 GBP or 1 AUD).
 */
export type FigureTerms = 'units-per-base' | 'base-per-unit';

/**
 * One source's stored values of one day, each the source's own figure for c, as written: in
 * `terms`, or for a code of `termsByCode` in its terms there (the SARB quotes rand per US dollar
 * but Norwegian krone per rand).
 */
export interface SourceDayValues {
  source: string;
  base: string;
  terms: FigureTerms;
  termsByCode?: ReadonlyMap<string, FigureTerms> | undefined;
  values: ReadonlyMap<string, string>;
}

/** A source as its days' values name it: its id, the currency it quotes against, the terms of its figures. */
export interface DaySource {
  readonly id: string;
  readonly base: string;
  readonly terms: FigureTerms;
  /** The codes it quotes otherwise than `terms`, with their terms; none for most sources. */
  readonly termsByCode?: ReadonlyMap<string, FigureTerms> | undefined;
}

/** The source's figure for `code`, its base included (1 in either terms); undefined when not given. */
function valueOf(day: SourceDayValues, code: string): string | undefined {
  return code === day.base ? '1' : day.values.get(code);
}

/** Whether the source gives `code` that day: its base always, else when it is one of its values. */
export function gives(day: SourceDayValues, code: string): boolean {
  return code === day.base || day.values.has(code);
}

/** Whether the source gives a rate per 1 EUR that day: when EUR is its base or one of its values. */
export function quotesEur(day: SourceDayValues): boolean {
  return gives(day, 'EUR');
}

/** The codes the source has a rate per 1 EUR for that day (its base among them), EUR aside. */
export function eurQuotedCodes(day: SourceDayValues): string[] {
  if (!quotesEur(day)) return [];
  const codes = [...day.values.keys()];
  if (day.base !== 'EUR') codes.push(day.base);
  return codes.filter((code) => code !== 'EUR');
}

/**
 * The source's rate of `code` per one unit of `pivot` that day, exact: U(code) / U(pivot), or
 * P(pivot) / P(code). The pivot itself is 1; undefined when the source lacks either that day.
 */
export function rateOf(day: SourceDayValues, pivot: string, code: string): Ratio | undefined {
  if (code === pivot) return gives(day, pivot) ? ratio(ONE, ONE) : undefined;
  const text = valueOf(day, code);
  if (text === undefined) return undefined;
  // Against its own base (the ECB per 1 EUR, a source alone): the figure itself, nothing to divide by.
  if (pivot === day.base) return perBase(day, code, text);
  const pivotText = day.values.get(pivot);
  if (pivotText === undefined) return undefined;
  // Figures written two ways: each as units per one base unit, then divided, exact.
  if (day.termsByCode !== undefined) return quotient(perBase(day, code, text), perBase(day, pivot, pivotText));
  return day.terms === 'units-per-base' ? ratio(decimal(text), decimal(pivotText)) : ratio(decimal(pivotText), decimal(text));
}

/** Units of `code` per one unit of the source's base, from its figure `text`, exact: U(code), or 1 / P(code). */
function perBase(day: SourceDayValues, code: string, text: string): Ratio {
  const terms = day.termsByCode?.get(code) ?? day.terms;
  return terms === 'units-per-base' ? ratio(decimal(text), ONE) : ratio(ONE, decimal(text));
}

/**
 * The source's rate of `code` per 1 EUR that day, exact (rateOf): the ECB's own figure, or
 * P(EUR) / P(code). EUR itself is 1; undefined when the source has no EUR or no `code` that day.
 */
export function eurRate(day: SourceDayValues, code: string): Ratio | undefined {
  return rateOf(day, 'EUR', code);
}

/** Every rate of the source per 1 EUR that day (EUR aside), or undefined when it has no EUR. */
export function eurRates(day: SourceDayValues): Map<string, Ratio> | undefined {
  if (!quotesEur(day)) return undefined;
  return new Map(eurQuotedCodes(day).map((code) => [code, eurRate(day, code)!]));
}

/**
 * A source's day as stored (`USD=3.6056;EUR=4.2304`, day-encoding.ts), read in place: a server
 * holds each source's whole history as one string a day, and an answer reading a day decodes
 * only the values it needs, never keeping them. `keep`: the codes it gives (a server's tracked ones and EUR).
 */
export class StoredSourceDay implements SourceDayValues {
  readonly values: ReadonlyMap<string, string>;

  constructor(
    private readonly of: DaySource,
    readonly date: string,
    /** The day's values as the store encoded them. */
    readonly rates: string,
    keep: (code: string) => boolean = () => true,
  ) {
    this.values = new EncodedDayRates(rates, keep);
  }

  get source(): string {
    return this.of.id;
  }

  get base(): string {
    return this.of.base;
  }

  get terms(): FigureTerms {
    return this.of.terms;
  }

  get termsByCode(): ReadonlyMap<string, FigureTerms> | undefined {
    return this.of.termsByCode;
  }
}
