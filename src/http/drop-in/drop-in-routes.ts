import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { KeyCache } from '../../live/key-cache.js';
import type { ApiEndpoint } from '../endpoints/endpoint.js';
import { apiRoutes, type ApiRouteDeps } from '../routes/api-routes.js';
import { FRANKFURTER_V1, FRANKFURTER_V2, OXR, speaking, type Dialect } from './dialects.js';
import { authenticateDropIn, frankfurterKeys, oxrKeys, type KeySources } from './drop-in-keys.js';
import { FRANKFURTER_V1_ENDPOINTS } from './frankfurter-v1.js';
import { v2CurrenciesEndpoint, v2CurrencyEndpoint, v2ProvidersEndpoint } from './frankfurter-v2-catalog.js';
import { v2RateEndpoint, v2RatesEndpoint } from './frankfurter-v2-rates.js';
import { oxrCurrenciesEndpoint, oxrCurrenciesRoute, oxrUsageEndpoint } from './oxr-account.js';
import { oxrConvertEndpoint } from './oxr-convert.js';
import { oxrHistoricalEndpoint, oxrLatestEndpoint, oxrTimeSeriesEndpoint } from './oxr-rates.js';

const FRANKFURTER_V2_ENDPOINTS = [v2RatesEndpoint, v2RateEndpoint, v2CurrenciesEndpoint, v2CurrencyEndpoint, v2ProvidersEndpoint];
const OXR_KEYED_ENDPOINTS = [oxrLatestEndpoint, oxrHistoricalEndpoint, oxrTimeSeriesEndpoint, oxrConvertEndpoint, oxrUsageEndpoint];

export interface DropInDeps extends ApiRouteDeps {
  keys: KeyCache;
  /** Whether COMPAT_KEY is set: Frankfurter paths then need no key. */
  compatKey: boolean;
  /** The API's quota hook (hooks/count-request.ts): drop-in requests count like any other. */
  countRequest: onRequestAsyncHookHandler;
}

/** Every drop-in path, for the 405s and preflights of other-methods.ts. */
export function dropInEndpoints(deps: Pick<ApiRouteDeps, 'tracked'>): ApiEndpoint[] {
  return [...FRANKFURTER_V1_ENDPOINTS, ...FRANKFURTER_V2_ENDPOINTS, ...OXR_KEYED_ENDPOINTS, oxrCurrenciesEndpoint(deps)];
}

/**
 * DECISIONS §16: the Frankfurter and Open Exchange Rates paths, each family a plugin of its own:
 * its errors in its peer's shape, its keys as the peer takes them, then the API's quota hook and
 * the same answering as the native endpoints (api-routes.ts: cache, ETag, 304).
 */
export function dropInRoutes(app: FastifyInstance, deps: DropInDeps): void {
  const family = (dialect: Dialect, keys: KeySources, endpoints: readonly ApiEndpoint[]) =>
    app.register(async (scope) => {
      scope.addHook('onRequest', speaking(dialect));
      scope.addHook('onRequest', authenticateDropIn(keys));
      scope.addHook('onRequest', deps.countRequest);
      apiRoutes(scope, deps, endpoints);
    });
  family(FRANKFURTER_V1, frankfurterKeys(deps.keys, deps.compatKey), FRANKFURTER_V1_ENDPOINTS);
  family(FRANKFURTER_V2, frankfurterKeys(deps.keys, deps.compatKey), FRANKFURTER_V2_ENDPOINTS);
  family(OXR, oxrKeys(deps.keys), OXR_KEYED_ENDPOINTS);
  // OXR serves its currency list to anyone: no key, not counted.
  app.register(async (open) => {
    open.addHook('onRequest', speaking(OXR));
    oxrCurrenciesRoute(open, deps);
  });
}
