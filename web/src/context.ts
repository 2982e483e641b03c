import type { ApiClient, Currency, Source } from './api.js';
import type { RatesApi } from './rates-api.js';

/** What the panels share: the API client, its rate questions, the source picked, the currencies once known, and the newest days seen. */
export interface PageContext {
  api: ApiClient;
  rates: RatesApi;
  /** The bank the rate questions are asked of; undefined for the default (the first that publishes). */
  picked(): Source | undefined;
  currencies: Map<string, Currency>;
  /**
   * The newest day with rates, by source id ('' for the default), from the last latest-rates
   * answer: the ranges end there, and one bank's newest day is not another's.
   */
  newestDays: Map<string, string>;
}
