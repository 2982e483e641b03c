import type { ApiClient, Currency } from './api.js';
import type { RatesApi } from './rates-api.js';

/** What the panels share: the API client, its rate questions, the currencies once known, and the newest day seen. */
export interface PageContext {
  api: ApiClient;
  rates: RatesApi;
  currencies: Map<string, Currency>;
  /** The newest day with rates, from the last latest-rates answer: the ranges end there. */
  newestDay: string | undefined;
}
