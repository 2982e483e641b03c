import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { TrackedCurrencies } from './domain/currencies.js';
import { systemClock, type Clock } from './domain/quota.js';
import type { HttpLimits } from './http/limits.js';
import { runIngestion, summarise } from './ingest/run-ingestion.js';
import { scheduleIngestion } from './ingest/scheduled-ingestion.js';
import { ECB_URLS } from './ingest/sources.js';
import { KeyCache } from './live/key-cache.js';
import { RatesView } from './live/rates-view.js';
import { startRefresher } from './live/refresher.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { openStores } from './storage/open-stores.js';
import type { RatesStore } from './storage/ports.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Stops accepting, finishes in-flight requests, closes the stores. */
  close(): Promise<void>;
}

/** Runs one ingestion from a URL; a failure is logged as one warning and otherwise ignored. True when it landed. */
async function ingestQuietly(store: RatesStore, url: string, log: FastifyBaseLogger, consequence: string): Promise<boolean> {
  try {
    log.info(summarise(await runIngestion(store, { url })));
    return true;
  } catch (err) {
    log.warn(`ingestion failed: ${(err as Error).message}; ${consequence}`);
    return false;
  }
}

/** Opens the stores, loads every ingested day into memory, and only then listens. */
export async function startServer(
  config: Config,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
  /** Production leaves this out; tests of the timeouts shorten the limits. */
  tuning: { httpLimits?: HttpLimits } = {},
): Promise<RunningServer> {
  const stores = await openStores({
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    onBackendError: (err) => log.warn(`storage backend: ${err.message}`),
  });
  const tracked = new TrackedCurrencies(config.currencies);
  const view = new RatesView(stores.rates, tracked);
  const keys = new KeyCache(stores.keys);
  await Promise.all([view.refresh(), keys.refresh()]);
  const metrics = new ServiceMetrics(view, tracked);

  if (view.snapshot.isEmpty && config.ingestOnEmpty !== 'off') {
    log.info(`no rates stored yet: fetching ${ECB_URLS[config.ingestOnEmpty]}`);
    const landed = await ingestQuietly(
      stores.rates,
      ECB_URLS[config.ingestOnEmpty],
      log,
      'serving without rates: rate and conversion answers are 404 until "currency-rates ingest" runs',
    );
    metrics.recordIngestion('startup', landed);
    await view.refresh();
  }
  log.info(`loaded ${view.snapshot.dayCount} days of rates`);

  const app = buildApp({
    config, tracked, view, keys, quota: stores.quota, readiness: stores, logger: log, clock, ...tuning,
    metrics: config.metrics.enabled ? { metrics, token: config.metrics.token } : undefined,
  });
  await app.listen({ port: config.port, host: config.host });

  const stopRefresher = startRefresher(() => Promise.all([view.refresh(), keys.refresh()]), config.refreshIntervalMs, log);
  const stopSchedule =
    config.ingestScheduleMinute === null
      ? () => undefined
      : scheduleIngestion({
          rates: stores.rates,
          jobs: stores.jobs,
          url: ECB_URLS[config.ingestScheduleSource],
          minuteOfDay: config.ingestScheduleMinute,
          log,
          clock,
          onLanded: () => view.refresh(),
          onRun: (landed) => metrics.recordIngestion('scheduled', landed),
        });

  return {
    app,
    close: async () => {
      stopRefresher();
      stopSchedule();
      // app.close() stops accepting and waits for every open connection. Idle keep-alive ones are
      // closed only once, when it starts; a connection whose last request finishes later would hold
      // the process for the whole keep-alive timeout. So idle connections are swept until the
      // close completes, and after 25 s whatever is left is cut.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => app.server.closeAllConnections(), 25_000);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(deadline);
      }
      await stores.close();
    },
  };
}
