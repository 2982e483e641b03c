import { PROVIDER_FILES, providerBytes, providerText } from './provider-fixtures.js';
import { divide, parseDecimal, type Rational } from './oracle.js';

/**
 * The banks' values read straight from the text of their recorded files with regular expressions,
 * nothing from src/: P(c), units of the bank's base per one unit of c on a day (DECISIONS §9), for
 * the exact oracle of the served cross rates.
 */

/** NBP tables A and B: `"effectiveDate":"D","rates":[{…,"code":"AFN","mid":0.056626},…]`. */
export function nbpValue(date: string, code: string): Rational | undefined {
  for (const file of [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB]) {
    for (const table of providerText(file).matchAll(/"effectiveDate":"(\d{4}-\d\d-\d\d)","rates":\[(.*?)\]/g)) {
      if (table[1] !== date) continue;
      const value = new RegExp(`"code":"${code}","mid":([0-9.]+)`).exec(table[2]!);
      if (value) return parseDecimal(value[1]!);
    }
  }
  return undefined;
}

/** The Bank of Russia's daily XML (one day): `<CharCode>DZD</CharCode><Nominal>100</Nominal>…<Value>57,0006</Value>`. */
export function cbrValue(code: string): Rational | undefined {
  const text = providerBytes(PROVIDER_FILES.cbr).toString('latin1');
  const found = new RegExp(`<CharCode>${code}</CharCode><Nominal>(\\d+)</Nominal><Name>[^<]*</Name><Value>([0-9,]+)</Value>`).exec(text);
  if (!found) return undefined;
  return divide(parseDecimal(found[2]!.replace(',', '.')), parseDecimal(found[1]!));
}

/** The date the Bank of Russia's file is for: `<ValCurs Date="25.04.2026"`. */
export function cbrDate(): string {
  const [, day, month, year] = /<ValCurs Date="(\d\d)\.(\d\d)\.(\d{4})"/.exec(providerText(PROVIDER_FILES.cbr))!;
  return `${year}-${month}-${day}`;
}

/** A bank's rate of `code` per 1 EUR: P(EUR) / P(code), P(base) = 1. */
export function perEuroFrom(value: (code: string) => Rational | undefined, base: string, code: string): Rational {
  const of = (c: string) => (c === base ? { num: 1n, den: 1n } : value(c));
  const eur = of('EUR');
  const unit = of(code);
  if (eur === undefined || unit === undefined) throw new Error(`oracle: no value for EUR or ${code}`);
  return divide(eur, unit);
}
