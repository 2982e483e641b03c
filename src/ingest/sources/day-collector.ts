import { decimal, decimalText, dividedByPowerOfTen, multiplied, powerOfTenExponent } from '../../domain/money.js';
import { IngestFormatError } from '../parsed-day.js';
import { canonicalRate, isCurrencyCode, isValidIsoDate, showValue } from '../rate-value.js';
import type { SourceDay } from './source-adapter.js';

/** A well-formed document without a single rate: refused as a publication, nothing to add from a range. */
export class EmptyDocumentError extends IngestFormatError {
  override name = 'EmptyDocumentError';
}

/** Largest nominal a bank may quote per: 10^9 (the CBR's largest is 1,000,000). */
const MAX_NOMINAL_EXPONENT = 9;

/** Grams in one troy ounce, exactly (DECISIONS §15: metals are per troy ounce). */
const GRAMS_PER_TROY_OUNCE = decimal('31.1034768');

/**
 * Gathers a source's values day by day and refuses what cannot be one bank's publication: a
 * malformed code, the base quoted against itself, a currency twice on one day. Errors name the
 * origin, the day and the currency.
 */
export class DayCollector {
  private readonly days = new Map<string, Map<string, string>>();

  constructor(
    private readonly origin: string,
    private readonly base: string,
  ) {}

  /** Checks an ISO day and opens it (several documents or tables may add to one day). */
  day(date: string, where: string): Map<string, string> {
    if (!isValidIsoDate(date)) throw new IngestFormatError(`${this.origin}: ${where} has an invalid date ${showValue(date)}`);
    let values = this.days.get(date);
    if (!values) this.days.set(date, (values = new Map()));
    return values;
  }

  /**
   * Adds P(code) = value / nominal on `date`. `value` is the bank's text with a decimal point;
   * `nominal` the number of units it is quoted per, as written ("1", "100"). A `units-per-base`
   * source (units of code per 1 base unit) adds its value as written, with nominal "1".
   */
  add(date: string, code: string, value: string, nominal: string): void {
    const values = this.day(date, `day ${date}`);
    const where = `${this.origin}: ${date}`;
    if (!isCurrencyCode(code)) throw new IngestFormatError(`${where}: invalid currency ${showValue(code)} (expected 3 upper-case letters)`);
    const at = () => `${where} currency=${code}`;
    if (code === this.base) throw new IngestFormatError(`${at()}: the source's own base currency is quoted; its value is 1 by definition`);
    if (values.has(code)) throw new IngestFormatError(`${at()} appears twice`);
    const exponent = powerOfTenExponent(nominal);
    if (exponent === undefined || exponent > MAX_NOMINAL_EXPONENT) {
      throw new IngestFormatError(`${at()}: invalid nominal ${showValue(nominal)} (expected 1, 10, 100 … up to 10^${MAX_NOMINAL_EXPONENT})`);
    }
    const rate = canonicalRate(value, at);
    values.set(code, exponent === 0 ? rate : decimalText(dividedByPowerOfTen(decimal(rate), exponent)));
  }

  /**
   * Adds a metal a bank quotes in base units per gram (per `nominal` grams, read as `add` reads
   * it): P(code) per troy ounce = value / nominal × 31.1034768, exact (only a base-per-unit source
   * can quote so).
   */
  addPerGram(date: string, code: string, value: string, nominal = '1'): void {
    this.add(date, code, value, nominal);
    const values = this.days.get(date)!;
    values.set(code, decimalText(multiplied(decimal(values.get(code)!), GRAMS_PER_TROY_OUNCE)));
  }

  /** The days gathered, oldest first; refuses a document with no values at all. */
  result(): SourceDay[] {
    const days = [...this.days]
      .filter(([, values]) => values.size > 0)
      .map(([date, values]) => ({ date, values }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    if (days.length === 0) throw new EmptyDocumentError(`${this.origin}: the document holds no rates`);
    return days;
  }
}

/** DD.MM.YYYY (the CBR's and NBU's day format) as YYYY-MM-DD; undefined when not of that shape. */
export function isoFromDotted(text: string): string | undefined {
  if (!/^\d{2}\.\d{2}\.\d{4}$/.test(text)) return undefined;
  const iso = `${text.slice(6)}-${text.slice(3, 5)}-${text.slice(0, 2)}`;
  return isValidIsoDate(iso) ? iso : undefined;
}

/** YYYY-MM-DD as DD.MM.YYYY, the day format of the feeds that take one (NBK's, NBM's). */
export function dottedFromIso(iso: string): string {
  return `${iso.slice(8)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}

/**
 * The days of several documents of one source (NBP's tables A and B) as one list: a day's values
 * are the union of its documents'; one currency with two different values on a day is refused.
 */
export function combineDocuments(documents: readonly SourceDay[][], origin: string): SourceDay[] {
  if (documents.length === 1) return documents[0]!;
  const days = new Map<string, Map<string, string>>();
  for (const document of documents) {
    for (const { date, values } of document) {
      let combined = days.get(date);
      if (!combined) days.set(date, (combined = new Map()));
      for (const [code, value] of values) {
        const before = combined.get(code);
        if (before !== undefined && before !== value) {
          throw new IngestFormatError(`${origin}: ${date} currency=${code} has two values, ${before} and ${value}`);
        }
        combined.set(code, value);
      }
    }
  }
  return [...days].map(([date, values]) => ({ date, values })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
