import type { ApiClient, Conversion, RateRange, RateSet } from './api.js';

type Query = Record<string, string | undefined>;

/**
 * Every rate question the page asks (convert, latest, a range), their query strings built here
 * alone: a parameter all of them take, such as the source a client picks, is one line in `ask`.
 */
export class RatesApi {
  constructor(private readonly api: ApiClient) {}

  convert(query: { from: string; to: string; amount: string; date: string }): Promise<Conversion> {
    return this.ask('convert', query);
  }

  latest(query: { base: string; symbols?: string }): Promise<RateSet> {
    return this.ask('rates/latest', query);
  }

  /** The days from `start` to the newest (an open range). */
  since(start: string, query: { base: string; symbols: string }): Promise<RateRange> {
    return this.ask(`rates/${start}..`, query);
  }

  private ask<T>(path: string, query: Query): Promise<T> {
    return this.api.get<T>(path, query);
  }
}
