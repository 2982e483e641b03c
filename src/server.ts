import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from './app.js';
import { databaseForLog, metricsAccess, type Config, type MetricsAccess } from './config.js';
import { TrackedCurrencies } from './domain/currencies.js';
import { systemClock, type Clock } from './domain/quota.js';
import type { RatesSnapshot } from './domain/snapshot.js';
import type { HttpLimits } from './http/limits.js';
import { runIngestion, summarise } from './ingest/run-ingestion.js';
import { countOf } from './plural.js';
import { scheduleIngestion } from './ingest/scheduled-ingestion.js';
import { namedFeed, sourceAdapter, type NamedFeed } from './ingest/sources/registry.js';
import type { SourceAdapter } from './ingest/sources/source-adapter.js';
import { KeyCache } from './live/key-cache.js';
import { OutageLog } from './live/outage-log.js';
import { RatesView } from './live/rates-view.js';
import { startRefresher } from './live/refresher.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { openStores } from './storage/open-stores.js';
import type { RatesStore } from './storage/ports.js';
import type { SourceDescription } from './domain/source-values.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Stops accepting, finishes in-flight requests, closes the stores. */
  close(): Promise<void>;
}

/** Runs one ingestion of a named feed; a failure is logged as one warning and otherwise ignored. True when it landed. */
async function ingestQuietly(rates: RatesStore, feed: NamedFeed, log: FastifyBaseLogger, consequence: string): Promise<boolean> {
  try {
    log.info(summarise(await runIngestion(rates, feed.adapter, { url: feed.url })));
    return true;
  } catch (err) {
    log.warn(`ingestion failed: ${(err as Error).message}; ${consequence}`);
    return false;
  }
}

/** What a snapshot holds, for the start-up line and the line of each pick-up. */
function describeRates(snapshot: RatesSnapshot): string {
  if (snapshot.isEmpty) return 'no rates stored yet';
  const dates = snapshot.datesNewestFirst;
  return `${countOf(dates.length, 'day')} of rates, ${dates[dates.length - 1]} .. ${dates[0]}`;
}

/** Where a browser on this machine finds the reference: the bound address, or localhost for a wildcard one. */
function docsUrl(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/docs`;
}

/** The start-up line saying how GET /metrics answers (DECISIONS §11); a warning when it is withheld. */
function logMetricsAccess(access: MetricsAccess, host: string, log: FastifyBaseLogger): void {
  if (access === 'off') log.info('/metrics is off (METRICS=off)');
  else if (access === 'token') log.info('/metrics needs METRICS_TOKEN as a bearer token');
  else if (access === 'loopback') log.info(`/metrics answers without a token: HOST ${host} is a loopback address (set METRICS_TOKEN before binding another)`);
  else log.warn(`/metrics is not served: HOST ${host} is not a loopback address and METRICS_TOKEN is unset (set METRICS_TOKEN to scrape it, or METRICS=off)`);
}

/** The enabled sources' adapters, in SOURCES order; SOURCES holds only registered ids (config.ts). */
function enabledAdapters(ids: readonly string[]): SourceAdapter[] {
  return ids.map((id) => {
    const adapter = sourceAdapter(id);
    if (adapter === undefined) throw new Error(`unknown source ${id}`);
    return adapter;
  });
}

/** The enabled sources as GET /sources names them. */
function describeSources(adapters: readonly SourceAdapter[]): SourceDescription[] {
  return adapters.map(({ id, name, base, homepage, country, rateType, cadence, publishesFrom }) => ({
    id, name, base, url: homepage, country, rateType, cadence, publishesFrom,
  }));
}

/** The feed INGEST_ON_EMPTY names, when its source is enabled and has nothing stored yet. */
function feedOnEmpty(config: Config, snapshot: RatesSnapshot): NamedFeed | undefined {
  const feed = config.ingestOnEmpty === 'off' ? undefined : namedFeed(config.ingestOnEmpty);
  if (feed === undefined || !config.sources.includes(feed.adapter.id)) return undefined;
  return snapshot.spanOf(feed.adapter.id) === undefined ? feed : undefined;
}

/** The longest a shutdown takes: what is still open then is cut. */
const SHUTDOWN_MS = 25_000;
/** The listener closes once no connection has come for this long (the load balancer has stopped sending)... */
const QUIET_MS = 250;
/** ...or after this long, whichever comes first. */
const ACCEPT_AT_MOST_MS = 10_000;

/**
 * Resolves once `server` has accepted no connection for `quietMs`, or after `maxMs`. Closing the
 * listener resets the connections still waiting in its backlog, so it stays open while they come.
 */
function acceptUntilQuiet(server: Server, quietMs: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    const until = Date.now() + maxMs;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      server.off('connection', wait);
      resolve();
    };
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, Math.max(0, Math.min(quietMs, until - Date.now())));
    };
    server.on('connection', wait);
    wait();
  });
}

/** Opens the stores, loads every ingested day into memory, and only then listens. */
export async function startServer(
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
  /** Production leaves this out; tests of the timeouts shorten the limits, the unit loop serves no page. */
  tuning: { httpLimits?: HttpLimits; webFiles?: AppDeps['webFiles'] } = {},
): Promise<RunningServer> {
  // Each backend outage is logged once as it begins and once as it ends, not once per failing call.
  const outages = new OutageLog(log);
  const stores = await openStores({
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    events: outages,
    // DECISIONS §12: a quota store down at start is waited for (not ready, the API 503) rather than
    // a crash loop; the database must answer, there is nothing to serve without it.
    redisMayStartUnreachable: true,
  });
  for (const notice of config.notices) log.warn(notice);
  const tracked = new TrackedCurrencies(config.currencies);
  const adapters = enabledAdapters(config.sources);
  const enabled = describeSources(adapters);
  const view = new RatesView(stores.rates, tracked, adapters, () => new Date(clock.now()).toISOString().slice(0, 10), config.homeFirstAfter);
  const keys = new KeyCache(stores.keys, Date.now, config.compatKey);
  await Promise.all([view.refresh(), keys.refresh()]);
  const metrics = new ServiceMetrics(view, tracked, keys);

  // What is stored of the feed's own source, not what is served: another bank's days do not stand
  // in for the ECB's history, and with the ECB not enabled its history is not fetched.
  const onEmpty = feedOnEmpty(config, view.snapshot);
  if (onEmpty !== undefined) {
    log.info(`no ${onEmpty.adapter.id} rates stored yet: fetching ${onEmpty.url}`);
    const landed = await ingestQuietly(
      stores.rates,
      onEmpty,
      log,
      'serving without rates: rate and conversion answers are 404 until "currency-rates ingest" runs',
    );
    metrics.recordIngestion('startup', landed);
    await view.refresh();
  }

  const access = metricsAccess(config);
  logMetricsAccess(access, config.host, log);
  let draining = false;
  const app = buildApp({
    config, tracked, view, sources: enabled, keys, quota: stores.quota,
    // DECISIONS §12: ready while this instance answers correctly: rates and keys are in memory from
    // the start, so that is while the quota store answers, whether or not PostgreSQL does.
    readiness: { ping: () => stores.pingQuota() },
    logger: log, clock, ...tuning,
    draining: () => draining,
    metrics: access === 'token' || access === 'loopback' ? { metrics, token: config.metrics.token } : undefined,
  });
  await app.listen({ port: config.port, host: config.host });
  log.info(
    `serving ${countOf(tracked.codes.size, 'currency', 'currencies')} from ${databaseForLog(config.databaseUrl)}: ` +
      `${describeRates(view.snapshot)}; API reference at ${docsUrl(app.server.address() as AddressInfo)}`,
  );

  // One line each time new data is loaded, whoever wrote it.
  const refreshRates = async () => {
    if (await view.refresh()) log.info(`picked up new rates: now ${describeRates(view.snapshot)}`);
  };
  const stopRefresher = startRefresher(() => Promise.all([refreshRates(), keys.refresh()]), config.refreshIntervalMs, log);
  // Each enabled source once a day, after its own publication time or at INGEST_SCHEDULE's UTC time.
  const { ingestSchedule } = config;
  const stopSchedules =
    ingestSchedule === 'off'
      ? []
      : adapters.map((adapter) =>
          scheduleIngestion(
            {
              rates: stores.rates, jobs: stores.jobs, adapter, log, clock,
              onLanded: refreshRates,
              onRun: (landed) => metrics.recordIngestion('scheduled', landed),
            },
            ingestSchedule === 'auto' ? undefined : ingestSchedule,
          ),
        );

  return {
    app,
    close: async () => {
      // DECISIONS §11: /ready turns 503 at once and every answer from now on closes its connection;
      // connections keep being accepted until they stop coming, then the listener closes.
      const started = Date.now();
      draining = true;
      for (const stop of stopSchedules) stop();
      await acceptUntilQuiet(app.server, QUIET_MS, ACCEPT_AT_MOST_MS);
      // app.close() waits for every open connection, closing idle ones once as it starts; one whose
      // answer began before the drain stays open after it, so idle ones are swept until the close
      // completes, and what is left at the deadline is cut.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => app.server.closeAllConnections(), Math.max(0, SHUTDOWN_MS - (Date.now() - started)));
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(deadline);
      }
      // Only now: until the last answer, a key revoked meanwhile is refused (DECISIONS §4).
      await stopRefresher();
      await stores.close();
    },
  };
}
