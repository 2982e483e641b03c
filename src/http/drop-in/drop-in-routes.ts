import type { KeyCache } from '../../live/key-cache.js';
import type { ApiEndpoint } from '../endpoints/endpoint.js';
import type { ApiRouteDeps } from '../routes/api-routes.js';
import { FRANKFURTER_V1, FRANKFURTER_V2, OXR, type Dialect } from './dialects.js';
import { frankfurterKeys, oxrKeys, type KeySources } from './drop-in-keys.js';
import { FRANKFURTER_V1_ENDPOINTS } from './frankfurter-v1.js';
import { v2CurrenciesEndpoint, v2CurrencyEndpoint, v2ProvidersEndpoint } from './frankfurter-v2-catalog.js';
import { v2RateEndpoint, v2RatesEndpoint } from './frankfurter-v2-rates.js';
import { oxrCurrenciesEndpoint, oxrUsageEndpoint } from './oxr-account.js';
import { oxrConvertEndpoint } from './oxr-convert.js';
import { oxrHistoricalEndpoint, oxrLatestEndpoint, oxrTimeSeriesEndpoint } from './oxr-rates.js';

const FRANKFURTER_V2_ENDPOINTS = [v2RatesEndpoint, v2RateEndpoint, v2CurrenciesEndpoint, v2CurrencyEndpoint, v2ProvidersEndpoint];
const OXR_KEYED_ENDPOINTS = [oxrLatestEndpoint, oxrHistoricalEndpoint, oxrTimeSeriesEndpoint, oxrConvertEndpoint, oxrUsageEndpoint];

/** Every drop-in path, for the 405s and preflights of other-methods.ts. */
export function dropInEndpoints(deps: Pick<ApiRouteDeps, 'tracked'>): ApiEndpoint[] {
  return [...FRANKFURTER_V1_ENDPOINTS, ...FRANKFURTER_V2_ENDPOINTS, ...OXR_KEYED_ENDPOINTS, oxrCurrenciesEndpoint(deps)];
}

/** A family of drop-in paths: its peer's dialect (error shape), how its keys are taken, and its endpoints. */
export interface DropInFamily {
  dialect: Dialect;
  keys: KeySources;
  endpoints: readonly ApiEndpoint[];
}

/**
 * DECISIONS §16: the Frankfurter and Open Exchange Rates paths, each family a plugin of its own
 * (app.ts): its errors in its peer's shape, its keys as the peer takes them, then the API's quota
 * hook and the same answering as the native endpoints (api-routes.ts: cache, ETag, 304).
 * `compatKey`: whether COMPAT_KEY is set (Frankfurter paths then need no key).
 */
export function dropInFamilies(keys: KeyCache, compatKey: boolean): DropInFamily[] {
  return [
    { dialect: FRANKFURTER_V1, keys: frankfurterKeys(keys, compatKey), endpoints: FRANKFURTER_V1_ENDPOINTS },
    { dialect: FRANKFURTER_V2, keys: frankfurterKeys(keys, compatKey), endpoints: FRANKFURTER_V2_ENDPOINTS },
    { dialect: OXR, keys: oxrKeys(keys), endpoints: OXR_KEYED_ENDPOINTS },
  ];
}
