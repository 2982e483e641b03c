import type { ApiClient, Currency } from './api.js';

/** What the panels share: the API client, the currencies once known, and the newest day seen. */
export interface PageContext {
  api: ApiClient;
  currencies: Map<string, Currency>;
  /** The newest day with rates, from the last latest-rates answer: the ranges end there. */
  newestDay: string | undefined;
}
