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
import { systemClock, type Clock } from './domain/quota.js';
import type { SourceDescription } from './domain/source-values.js';
import { clientErrorHandler, Exchanges } from './http/client-errors.js';
import { OXR, speaking } from './http/drop-in/dialects.js';
import { authenticateDropIn } from './http/drop-in/drop-in-keys.js';
import { dropInEndpoints, dropInFamilies } from './http/drop-in/drop-in-routes.js';
import { oxrCurrenciesRoute } from './http/drop-in/oxr-account.js';
import { API_ENDPOINTS } from './http/endpoints/api-endpoints.js';
import { registerErrorHandling } from './http/errors.js';
import { frameworkErrors } from './http/framework-errors.js';
import { authenticate } from './http/hooks/authenticate.js';
import { closeWhenDraining } from './http/hooks/close-when-draining.js';
import { commonHeaders } from './http/hooks/common-headers.js';
import { countRequest } from './http/hooks/count-request.js';
import { guardDocsPath, protectDocs } from './http/hooks/docs-guard.js';
import { emptyParameterIsUnknownPath } from './http/hooks/empty-parameter.js';
import { logAccess } from './http/hooks/log-access.js';
import { observeAnswer, observeAnswers } from './http/hooks/observe-answer.js';
import { exactPathOnly, protectPage } from './http/hooks/page-guard.js';
import { requestLimits } from './http/hooks/request-limits.js';
import { HTTP_LIMITS, limitOptions, type HttpLimits } from './http/limits.js';
import { mcpRoutes } from './http/mcp/mcp-routes.js';
import { apiReference, registerOpenApi } from './http/openapi/register-api-docs.js';
import { requestIdOf } from './http/request-id.js';
import { ResponseCache } from './http/response-cache.js';
import { apiRoutes } from './http/routes/api-routes.js';
import { healthRoutes, type Readiness } from './http/routes/health-routes.js';
import { metricsRoutes, type MetricsExposure } from './http/routes/metrics-routes.js';
import { otherMethodRoutes } from './http/routes/other-methods.js';
import { loadWebFiles, webPageRoutes, type WebFile } from './http/routes/web-page.js';
import { Turns } from './http/taking-turns.js';
import { sourceRules } from './http/endpoints/parameters.js';
import type { KeyCache } from './live/key-cache.js';
import type { RatesView } from './live/rates-view.js';
import type { QuotaStore } from './storage/ports.js';

export interface AppDeps {
  config: Pick<Config, 'quota' | 'responseCacheBytes' | 'compatKey'>;
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
  /** The page at `/` and its assets; by default the build's (dist/web), which must exist. */
  webFiles?: Map<string, WebFile>;
}

// Validation runs in each endpoint's handler over path and query at once, and the handlers send JSON they
// rendered themselves: the route schemas only document. Given to the constructor, Fastify never
// loads Ajv and fast-json-stringify.
const passThrough: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });
const plainJson: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
// Fastify's types tie these factories to Ajv and fast-json-stringify, the defaults they stand for.
const OWN_COMPILERS = { buildValidator: () => passThrough, buildSerializer: () => plainJson } as unknown as CompilersFactory;

/**
 * The one app factory: the server, the tests and the scripts all build exactly this. The edge,
 * in the order a request meets it:
 *   Node's parser     what it refuses (400, 408, 414, 431): clientErrorHandler (client-errors.ts)
 *   the router        a bad percent-encoding, a parameter too long: frameworkErrors
 *   onRequest         commonHeaders, requestLimits, emptyParameterIsUnknownPath; then per context:
 *                     /docs guardDocsPath, the page exactPathOnly, other methods preflight or 405,
 *                     the API authenticate then countRequest (DECISIONS §1); the drop-in paths
 *                     their dialect's error shape, their own key rules, then countRequest (http/drop-in/)
 *   handler           an API endpoint validates its input, then answers (endpoints/endpoint.ts)
 *   errors            registerErrorHandling: every refusal in the spec's shape (errors.ts)
 *   onSend            closeWhenDraining; /docs protectDocs, the page protectPage, /metrics withoutCors
 *   onResponse        logAccess, observeAnswers (with /metrics)
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.httpLimits ?? HTTP_LIMITS;
  const metrics = deps.metrics?.metrics;
  // Per app, never per module: what the client-error handler knows of each connection.
  const exchanges = new Exchanges();
  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: deps.logger }),
    // The API reads no bodies: a tiny limit, and the parser below discards what comes.
    bodyLimit: 1024,
    // URL and header sizes and timeouts; JSON answers, counted, for what Node's parser and the router refuse.
    ...limitOptions(limits),
    clientErrorHandler: clientErrorHandler(limits, exchanges, (method, status) => metrics?.observeRequest('unmatched', method, status, 0)),
    frameworkErrors: frameworkErrors(limits, (request, reply) => {
      logAccess(request, reply, () => undefined);
      if (metrics) observeAnswer(metrics, request, reply);
    }),
    // One access line per request, written in onResponse (hooks/log-access.ts), not two.
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
  const draining = deps.draining ?? (() => false);

  registerErrorHandling(app);
  app.addHook('onRequest', commonHeaders);
  app.addHook('onRequest', requestLimits(limits, exchanges));
  app.addHook('onRequest', emptyParameterIsUnknownPath);
  app.addHook('onSend', closeWhenDraining(draining));
  app.addHook('onResponse', logAccess);
  if (metrics) app.addHook('onResponse', observeAnswers(metrics));

  // Before any route, so that it documents them all; beside the API plugin: no key, not counted.
  registerOpenApi(app);
  app.register(async (reference) => {
    reference.addHook('onRequest', guardDocsPath);
    reference.addHook('onSend', protectDocs);
    await reference.register(apiReference);
  });
  if (deps.metrics) metricsRoutes(app, deps.metrics);
  app.register(async (methods) => otherMethodRoutes(methods, [...API_ENDPOINTS, ...dropInEndpoints(deps)]));
  app.register(async (probes) => healthRoutes(probes, deps.readiness, draining));
  // The page at `/`: beside the API plugin, so loading it needs no key and counts nothing.
  const webFiles = deps.webFiles ?? loadWebFiles();
  app.register(async (page) => {
    page.addHook('onRequest', exactPathOnly);
    page.addHook('onSend', protectPage);
    webPageRoutes(page, webFiles);
  });
  const quota = { quota: deps.quota, policy: deps.config.quota, clock: deps.clock ?? systemClock };
  const counting = countRequest(quota);
  // One response cache, one memory bound, for the API's paths and the drop-in ones (keys differ by path).
  const served = {
    view: deps.view,
    sources: deps.sources,
    tracked: deps.tracked,
    cache: new ResponseCache(deps.config.responseCacheBytes),
    stalledAnswerMs: limits.stalledAnswerMs,
    // One queue of heavy work for the whole app: the API's ranges, the drop-in ones and the MCP history take turns together.
    turns: new Turns(),
    // Validation rules the configuration decides (the enabled sources), made once for every path.
    rules: sourceRules(deps.sources.map(({ id }) => id)),
  };
  app.register(async (api) => {
    // DECISIONS §1: auth, then quota, then validation (in each endpoint's handler), then the answer.
    api.addHook('onRequest', authenticate(deps.keys));
    api.addHook('onRequest', counting);
    apiRoutes(api, served);
  });
  // DECISIONS §17: POST /mcp, tools for AI agents; the API's key check, each tool call counted once.
  app.register(async (mcp) => {
    mcpRoutes(mcp, { ...served, keys: deps.keys, quota });
  });
  // DECISIONS §16: other services' paths, with the same keys, quota and answers in their shapes:
  // each family its peer's error shape, then its own key rules, then the quota (http/drop-in/).
  for (const family of dropInFamilies(deps.keys, deps.config.compatKey !== undefined)) {
    app.register(async (scope) => {
      scope.addHook('onRequest', speaking(family.dialect));
      scope.addHook('onRequest', authenticateDropIn(family.keys));
      scope.addHook('onRequest', counting);
      apiRoutes(scope, served, family.endpoints);
    });
  }
  // OXR serves its currency list to anyone: no key, not counted.
  app.register(async (open) => {
    open.addHook('onRequest', speaking(OXR));
    oxrCurrenciesRoute(open, served);
  });
  return app;
}
