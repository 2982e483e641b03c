// The parts of the third-party client packages the drop-in tests drive (they ship no types).

declare module 'oxr' {
  interface OxrService {
    latest(query?: Record<string, string>): Promise<{ timestamp: number; base: string; rates: Record<string, number> }>;
    historical(date: string, query?: Record<string, string>): Promise<{ timestamp: number; base: string; rates: Record<string, number> }>;
    currencies(query?: Record<string, string>): Promise<Record<string, string>>;
  }
  interface OxrError extends Error {
    status: number;
    description: string;
  }
  const oxr: {
    factory(options: { appId: string; protocol?: string; hostname?: string; port?: number }): OxrService;
    OxrError: new (...args: unknown[]) => OxrError;
  };
  export default oxr;
}

declare module 'exchange-rates-api' {
  interface ExchangeRates {
    setApiBaseUrl(url: string): ExchangeRates;
    latest(): ExchangeRates;
    at(date: string | Date): ExchangeRates;
    base(currency: string): ExchangeRates;
    symbols(currencies: string | string[]): ExchangeRates;
    fetch(): Promise<number | Record<string, number>>;
  }
  export function exchangeRates(): ExchangeRates;
  /** amount × the rate of `to` in `from` (latest, or on `date`), multiplied in the client's floats. */
  export function convert(amount: number, from: string, to: string, date?: string | Date): Promise<number>;
}
