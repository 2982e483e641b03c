import { PROVIDER_FILES, providerBytes, providerText } from './provider-fixtures.js';
import { divide, formatHalfUp6, parseDecimal, type Rational } from './oracle.js';

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

/** One bank's values, P(c) by day and code, read from its text. */
export type BankDays = Map<string, Map<string, Rational>>;

function put(days: BankDays, date: string, code: string, value: Rational): void {
  let day = days.get(date);
  if (!day) days.set(date, (day = new Map()));
  day.set(code, value);
}

const isoOf = (dayMonthYear: string) => dayMonthYear.split('.').reverse().join('-');

/** Every bank's recorded values (the ECB aside), by source id: what the files say, read as text. */
export function bankDays(): Map<string, BankDays> {
  const nbp: BankDays = new Map();
  for (const file of [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB]) {
    for (const table of providerText(file).matchAll(/"effectiveDate":"(\d{4}-\d\d-\d\d)","rates":\[(.*?)\]/g)) {
      for (const [, code, mid] of table[2]!.matchAll(/"code":"([A-Z]{3})","mid":([0-9.]+)/g)) put(nbp, table[1]!, code!, parseDecimal(mid!));
    }
  }
  // CNB: {"currencyCode":"HUF","amount":100,"validFor":"2026-01-02","rate":6.311}: CZK per `amount` units.
  const cnb: BankDays = new Map();
  for (const [, code, amount, date, rate] of providerText(PROVIDER_FILES.cnb).matchAll(/"currencyCode":"([A-Z]{3})","amount":(\d+),"validFor":"([\d-]+)","rate":([0-9.]+)/g)) {
    put(cnb, date!, code!, divide(parseDecimal(rate!), parseDecimal(amount!)));
  }
  // Bank of Canada: observations with "FXUSDCAD": {"v": "1.3617"} (values are strings there).
  const boc: BankDays = new Map();
  const observations = (JSON.parse(providerText(PROVIDER_FILES.boc)) as { observations: Record<string, unknown>[] }).observations;
  for (const observation of observations) {
    for (const [series, cell] of Object.entries(observation)) {
      const code = /^FX([A-Z]{3})CAD$/.exec(series)?.[1];
      if (code) put(boc, observation['d'] as string, code, parseDecimal((cell as { v: string }).v));
    }
  }
  // NBU: "exchangedate":"01.03.2026",…,"cc":"THB",…,"rate":13.9116,"units":10: UAH per `units` units.
  const nbu: BankDays = new Map();
  for (const [, date, code, rate, units] of providerText(PROVIDER_FILES.nbu).matchAll(/"exchangedate":"([\d.]+)","r030":\d+,"cc":"([A-Z]{3})",[^}]*?"rate":([0-9.]+),"units":(\d+)/g)) {
    put(nbu, isoOf(date!), code!, divide(parseDecimal(rate!), parseDecimal(units!)));
  }
  const cbr: BankDays = new Map();
  for (const [, code] of providerBytes(PROVIDER_FILES.cbr).toString('latin1').matchAll(/<CharCode>([A-Z]{3})<\/CharCode>/g)) put(cbr, cbrDate(), code!, cbrValue(code!)!);
  return new Map([['nbp', nbp], ['cnb', cnb], ['boc', boc], ['cbr', cbr], ['nbu', nbu]]);
}

/** Each bank's own currency, P = 1. */
export const BANK_BASES: Readonly<Record<string, string>> = { nbp: 'PLN', cnb: 'CZK', boc: 'CAD', cbr: 'RUB', nbu: 'UAH' };

/** A day's rate per 1 EUR from lookups in priority order: the first that has it. */
export function firstOf(...sources: ((code: string) => Rational | undefined)[]): (code: string) => Rational | undefined {
  return (code) => {
    for (const source of sources) {
      const rate = source(code);
      if (rate !== undefined) return rate;
    }
    return undefined;
  };
}

/** The answer /rates/{date} must give: each of `codes` the day has, in `base`, keys alphabetical. */
export function rateSet(rateOf: (code: string) => Rational | undefined, date: string, base: string, codes: readonly string[]) {
  const baseRate = rateOf(base)!;
  const rates: Record<string, string> = {};
  for (const code of [...codes].sort()) {
    const rate = rateOf(code);
    if (rate !== undefined) rates[code] = formatHalfUp6(divide(rate, baseRate));
  }
  return { base, date, rates };
}
