/** A currency as the API lists it: names and symbols come from the CLDR data Node's Intl carries. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
}

/** EUR plus the 30 currencies of the ECB reference set as published in 2025 (DECISIONS §5). */
export const DEFAULT_TRACKED = [
  'EUR', 'USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'ISK', 'NOK',
  'TRY', 'AUD', 'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP',
  'SGD', 'THB', 'ZAR',
] as const;

export const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/**
 * CLDR's English names (as CLDR 48 writes them) of codes ISO 4217 added lately, for a Node.js
 * whose ICU predates them: the oldest supported line may not know what a bank already quotes.
 * Used only where Intl has no name; every other name is Intl's own (DECISIONS §5).
 */
const RECENT_CODE_NAMES: Readonly<Record<string, string>> = {
  SLE: 'Sierra Leonean Leone',
  VED: 'Bolívar Soberano',
  XCG: 'Caribbean guilder',
  ZWG: 'Zimbabwean Gold',
};

// Made on first use, like the list below: loading CLDR's display names slows the start.
let names: Intl.DisplayNames | undefined;

function cldrName(code: string): string | undefined {
  return (names ??= new Intl.DisplayNames('en', { type: 'currency', fallback: 'none' })).of(code);
}

/**
 * The English name of a code: CLDR's through Intl (historic codes too: CYP "Cypriot Pound", ROL
 * "Romanian Leu (1952–2006)"), else RECENT_CODE_NAMES, else the code itself (DECISIONS §9).
 */
export function currencyName(code: string, cldr: (code: string) => string | undefined = cldrName): string {
  return cldr(code) ?? RECENT_CODE_NAMES[code] ?? code;
}

function narrowSymbol(code: string): string {
  const parts = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
  }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? code;
}

export function describeCurrency(code: string): Currency {
  return { code, name: currencyName(code), symbol: narrowSymbol(code) };
}

/** The set of currencies this instance serves, fixed at start from configuration. */
export class TrackedCurrencies {
  readonly codes: ReadonlySet<string>;
  private described: readonly Currency[] | undefined;

  constructor(codes: Iterable<string>) {
    this.codes = new Set([...new Set([...codes].map((code) => code.toUpperCase()))].sort());
  }

  /** Described on first use: building CLDR formatters costs start-up time a server need not spend. */
  get list(): readonly Currency[] {
    return (this.described ??= [...this.codes].map(describeCurrency));
  }

  has(code: string): boolean {
    return this.codes.has(code);
  }
}
