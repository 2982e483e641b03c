import type { ApiClient, Conversion, RateRange, RateSet, Source } from './api.js';

type Query = Record<string, string | undefined>;

/** An answer with the source it was asked of: undefined when none was (each rate from the first bank that has it). */
export interface Sourced<T> {
  answer: T;
  source: Source | undefined;
}

/**
 * Every rate question the page asks (convert, latest, a range), their query strings built here
 * alone: a parameter all of them take, such as the source a client picks, is one line in `ask`.
 */
export class RatesApi {
  constructor(
    private readonly api: ApiClient,
    private readonly picked: () => Source | undefined,
  ) {}

  convert(query: { from: string; to: string; amount: string; date: string }): Promise<Sourced<Conversion>> {
    return this.ask('convert', query);
  }

  latest(query: { base: string; symbols?: string }): Promise<Sourced<RateSet>> {
    return this.ask('rates/latest', query);
  }

  /** The days from `start` to the newest (an open range). */
  since(start: string, query: { base: string; symbols: string }): Promise<Sourced<RateRange>> {
    return this.ask(`rates/${start}..`, query);
  }

  private async ask<T>(path: string, query: Query): Promise<Sourced<T>> {
    // Read once, so the answer names the bank it was really asked of, whatever is picked meanwhile.
    const source = this.picked();
    return { answer: await this.api.get<T>(path, { ...query, source: source?.id }), source };
  }
}
