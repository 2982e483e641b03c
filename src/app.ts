import { createServer, type Server, type ServerOptions } from 'node:http';
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
import { logAccess } from './http/access-log.js';
import { serveCached } from './http/answer.js';
import { registerErrorHandling } from './http/errors.js';
import { authenticateAndCount } from './http/hooks/authenticate.js';
import { commonHeaders } from './http/hooks/common-headers.js';
import { validateInput } from './http/hooks/validate-input.js';
import { fastPath, parseQuery } from './http/fast-path.js';
import { enforceRequestLimits, HTTP_LIMITS, limitOptions, type HttpLimits } from './http/limits.js';
import { registerLazyApiDocs } from './http/openapi/lazy-api-docs.js';
import { requestIdOf } from './http/request-id.js';
import { metricsRoutes, type MetricsExposure } from './http/routes/metrics-routes.js';
import { healthRoutes, type Readiness } from './http/routes/health-routes.js';
import { otherMethodRoutes } from './http/routes/other-methods.js';
import { ResponseCache } from './http/response-cache.js';
import { apiRoutes } from './http/routes/api-routes.js';
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
  /** URL, header and timeout limits (http/limits.ts); production uses HTTP_LIMITS. */
  httpLimits?: HttpLimits;
  /** GET /metrics and the per-request observations; undefined when METRICS=off. */
  metrics?: MetricsExposure | undefined;
  /** Answer valid API calls of known keys without the framework (http/fast-path.ts); on unless false. */
  fastPath?: boolean;
  /**
   * Registers the OpenAPI document and Swagger UI on the app (openapi/register-api-docs.ts). Left
   * out, the app serves them from a second app, built with it on the first request for either.
   */
  apiDocs?: (app: FastifyInstance) => void;
}

/** What Fastify hands a server factory, its defaults filled in. */
interface FactoryOptions {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

const passThrough: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });
const plainJson: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
// Fastify's types tie these factories to Ajv and fast-json-stringify, the defaults they stand for.
const OWN_COMPILERS = { buildValidator: () => passThrough, buildSerializer: () => plainJson } as unknown as CompilersFactory;

/** The one app factory: the server, the tests and the CLI all build exactly this. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.httpLimits ?? HTTP_LIMITS;
  const limitSettings = limitOptions(limits);
  const clock = deps.clock ?? systemClock;
  const context = { view: deps.view, tracked: deps.tracked, cache: new ResponseCache() };
  let server: Server | undefined;
  const answeredDirectly =
    deps.fastPath === false
      ? undefined
      : fastPath({
          context,
          keys: deps.keys,
          quota: deps.quota,
          policy: deps.config.quota,
          clock,
          log: deps.logger === false ? undefined : deps.logger,
          metrics: deps.metrics?.metrics,
          maxUrlLength: limits.maxUrlLength,
          accepting: () => server?.listening === true,
        });

  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : { loggerInstance: deps.logger }),
    // The API reads no bodies: a tiny limit, and the parser below discards what comes.
    bodyLimit: 1024,
    // URL and header sizes, timeouts, and JSON answers for what Node's parser refuses (http/limits.ts).
    ...limitSettings,
    // The fast path parses queries with this same function, so the two ways in cannot differ.
    routerOptions: { ...limitSettings.routerOptions, querystringParser: parseQuery },
    // One access line per request, written in onResponse (http/access-log.ts), not two.
    logController: new LogController({ disableRequestLogging: true }),
    // The log's reqId: the caller's X-Request-Id when acceptable, else a UUID (http/request-id.ts).
    genReqId: requestIdOf,
    // Validation runs in validateInput, after auth and quota (DECISIONS §1), over path and query at
    // once; the handlers send bytes they rendered themselves, the response schemas only document.
    // Given here rather than set later, so Fastify never loads Ajv and fast-json-stringify (~50 ms
    // of start).
    schemaController: { compilersFactory: OWN_COMPILERS },
    // The server Fastify would make (its HTTP/1 defaults), with the fast path in front of its handler.
    serverFactory: (handler, factoryOptions) => {
      const options = factoryOptions as unknown as FactoryOptions;
      server = createServer(options.http ?? {}, answeredDirectly ? (request, response) => answeredDirectly(request, response) || handler(request, response) : handler);
      server.keepAliveTimeout = options.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });

  registerErrorHandling(app);
  app.addHook('onRequest', commonHeaders);
  app.addHook('onRequest', enforceRequestLimits(limits));
  app.addHook('onResponse', logAccess);
  // Beside the authenticated plugin: no key, not counted.
  if (deps.apiDocs) deps.apiDocs(app);
  else {
    registerLazyApiDocs(app, async () => {
      const { registerApiDocs } = await import('./http/openapi/register-api-docs.js');
      // The docs app only documents and renders: it logs, measures and answers API calls never.
      return buildApp({ ...deps, logger: false, metrics: undefined, fastPath: false, apiDocs: registerApiDocs });
    });
  }
  if (deps.metrics) metricsRoutes(app, deps.metrics);
  app.register(async (methods) => otherMethodRoutes(methods));
  app.register(async (probes) => healthRoutes(probes, deps.readiness));
  app.register(async (api) => {
    api.addHook(
      'onRequest',
      authenticateAndCount({ keys: deps.keys, quota: deps.quota, policy: deps.config.quota, clock }),
    );
    api.addHook('preHandler', serveCached(context));
    api.addHook('preHandler', validateInput);
    apiRoutes(api, context);
  });
  return app;
}
