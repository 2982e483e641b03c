import { convertBulkEndpoint } from './convert-bulk.js';
import { convertEndpoint } from './convert.js';
import { currenciesEndpoint } from './currencies.js';
import type { ApiEndpoint } from './endpoint.js';
import { fluctuationEndpoint } from './fluctuation.js';
import { latestRatesEndpoint } from './latest-rates.js';
import { rateRangeEndpoint } from './rate-range.js';
import { ratesOnDateEndpoint } from './rates-on-date.js';
import { sourcesEndpoint } from './sources.js';
import { usageEndpoint } from './usage.js';

/**
 * Every API endpoint, in the order the OpenAPI document lists them. The routes, the 405s and
 * preflights of their paths, and the document are all derived from this list: adding an
 * endpoint is adding its module here.
 */
export const API_ENDPOINTS: readonly ApiEndpoint[] = [
  latestRatesEndpoint,
  ratesOnDateEndpoint,
  rateRangeEndpoint,
  fluctuationEndpoint,
  convertEndpoint,
  convertBulkEndpoint,
  currenciesEndpoint,
  sourcesEndpoint,
  usageEndpoint,
];
