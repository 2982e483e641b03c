import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { TrackedCurrencies } from './domain/currencies.js';
import { systemClock, type Clock } from './domain/quota.js';
import { logAccess } from './http/access-log.js';
import { corsHeaders } from './http/cors.js';
import { registerErrorHandling } from './http/errors.js';
import { authenticateAndCount } from './http/hooks/authenticate.js';
import { validateInput } from './http/hooks/validate-input.js';
import { convertRoutes } from './http/routes/convert-routes.js';
import { currenciesRoutes } from './http/routes/currencies-routes.js';
import { healthRoutes, type Readiness } from './http/routes/health-routes.js';
import { otherMethodRoutes } from './http/routes/other-methods.js';
import { ratesRoutes } from './http/routes/rates-routes.js';
import type { KeyCache } from './live/key-cache.js';
import type { RatesView } from './live/rates-view.js';
import type { QuotaStore } from './storage/ports.js';

export interface AppDeps {
  config: Pick<Config, 'quota'>;
  tracked: TrackedCurrencies;
  view: RatesView;
  keys: KeyCache;
  quota: QuotaStore;
  readiness: Readiness;
  logger: FastifyBaseLogger | false;
  clock?: Clock;
}

/** The one app factory: the server, the tests and the CLI all build exactly this. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: deps.logger }),
    // The API reads no bodies: a tiny limit, and the parser below discards what comes.
    bodyLimit: 1024,
    routerOptions: { maxParamLength: 200 },
    requestTimeout: 30_000,
    // One access line per request, written in onResponse (http/access-log.ts), not two.
    logController: new LogController({ disableRequestLogging: true }),
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });
  // Validation runs in validateInput, after auth and quota (DECISIONS §1), over path and query at once.
  app.setValidatorCompiler(() => (data) => ({ value: data }));

  registerErrorHandling(app);
  app.addHook('onRequest', corsHeaders);
  app.addHook('onResponse', logAccess);
  app.register(async (methods) => otherMethodRoutes(methods));
  app.register(async (probes) => healthRoutes(probes, deps.readiness));
  app.register(async (api) => {
    api.addHook(
      'onRequest',
      authenticateAndCount({ keys: deps.keys, quota: deps.quota, policy: deps.config.quota, clock: deps.clock ?? systemClock }),
    );
    api.addHook('preHandler', validateInput);
    ratesRoutes(api, deps.view, deps.tracked);
    convertRoutes(api, deps.view, deps.tracked);
    currenciesRoutes(api, deps.tracked);
  });
  return app;
}
