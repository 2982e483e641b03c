import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifySchemaCompiler,
  type FastifySerializerCompiler,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from './config.js';
import type { TrackedCurrencies } from './domain/currencies.js';
import type { SourceDescription } from './domain/source-values.js';
import { systemClock, type Clock } from './domain/quota.js';
import { logAccess } from './http/access-log.js';
import { registerErrorHandling } from './http/errors.js';
import { authenticate } from './http/hooks/authenticate.js';
import { commonHeaders } from './http/hooks/common-headers.js';
import { countRequest } from './http/hooks/count-request.js';
import { enforceRequestLimits, HTTP_LIMITS, limitOptions, type HttpLimits } from './http/limits.js';
import { registerApiDocs } from './http/openapi/register-api-docs.js';
import { requestIdOf } from './http/request-id.js';
import { ResponseCache } from './http/response-cache.js';
import { apiRoutes } from './http/routes/api-routes.js';
import { healthRoutes, type Readiness } from './http/routes/health-routes.js';
import { metricsRoutes, observeAnswer, type MetricsExposure } from './http/routes/metrics-routes.js';
import { emptyParameterIsUnknownPath } from './http/hooks/empty-parameter.js';
import { otherMethodRoutes } from './http/routes/other-methods.js';
import { webPageRoutes } from './http/routes/web-page.js';
import type { KeyCache } from './live/key-cache.js';
import type { RatesView } from './live/rates-view.js';
import type { QuotaStore } from './storage/ports.js';

export interface AppDeps {
  config: Pick<Config, 'quota'>;
  tracked: TrackedCurrencies;
  view: RatesView;
  /** GET /sources: the enabled sources, in SOURCES order (what is stored of them is in the snapshot). */
  sources: readonly SourceDescription[];
  keys: KeyCache;
  quota: QuotaStore;
  readiness: Readiness;
  logger: FastifyBaseLogger | false;
  clock?: Clock;
  /** URL, header and timeout limits (http/limits.ts); production uses HTTP_LIMITS. */
  httpLimits?: HttpLimits;
  /** GET /metrics and the per-request observations; undefined when METRICS=off. */
  metrics?: MetricsExposure | undefined;
  /** True once the server is shutting down: /ready is then 503 and every answer closes its connection. */
  draining?: () => boolean;
}

// Validation runs in validateInput over path and query at once, and the handlers send JSON they
// rendered themselves: the route schemas only document. Given to the constructor, Fastify never
// loads Ajv and fast-json-stringify.
const passThrough: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });
const plainJson: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
// Fastify's types tie these factories to Ajv and fast-json-stringify, the defaults they stand for.
const OWN_COMPILERS = { buildValidator: () => passThrough, buildSerializer: () => plainJson } as unknown as CompilersFactory;

/** The one app factory: the server, the tests and the scripts all build exactly this. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.httpLimits ?? HTTP_LIMITS;
  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: deps.logger }),
    // The API reads no bodies: a tiny limit, and the parser below discards what comes.
    bodyLimit: 1024,
    // URL and header sizes, timeouts, and JSON answers for what Node's parser refuses.
    ...limitOptions(limits, (request, reply) => {
      logAccess(request, reply, () => undefined);
      if (deps.metrics) observeAnswer(deps.metrics.metrics, request, reply);
    }),
    // One access line per request, written in onResponse (http/access-log.ts), not two.
    logController: new LogController({ disableRequestLogging: true }),
    // The caller's X-Request-Id when acceptable, else a UUID.
    genReqId: requestIdOf,
    schemaController: { compilersFactory: OWN_COMPILERS },
    // DECISIONS §11: a request that arrives while the server shuts down gets its normal answer.
    return503OnClosing: false,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });

  registerErrorHandling(app);
  app.addHook('onRequest', commonHeaders);
  app.addHook('onRequest', enforceRequestLimits(limits));
  app.addHook('onRequest', emptyParameterIsUnknownPath);
  app.addHook('onResponse', logAccess);
  const draining = deps.draining ?? (() => false);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining()) reply.header('connection', 'close');
    done(null, payload);
  });
  // Before any route, so that it documents them all; beside the API plugin: no key, not counted.
  registerApiDocs(app);
  if (deps.metrics) metricsRoutes(app, deps.metrics);
  app.register(async (methods) => otherMethodRoutes(methods));
  app.register(async (probes) => healthRoutes(probes, deps.readiness, draining));
  // The page at `/`: beside the API plugin, so loading it needs no key and counts nothing.
  app.register(async (page) => webPageRoutes(page));
  app.register(async (api) => {
    // DECISIONS §1: auth, then quota, then validation, then the handler.
    api.addHook('onRequest', authenticate(deps.keys));
    api.addHook('onRequest', countRequest({ quota: deps.quota, policy: deps.config.quota, clock: deps.clock ?? systemClock }));
    apiRoutes(api, { view: deps.view, sources: deps.sources, tracked: deps.tracked, cache: new ResponseCache() });
  });
  return app;
}
