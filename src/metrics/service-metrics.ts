import type { Registry } from 'prom-client';
import type { TrackedCurrencies } from '../domain/currencies.js';
import type { KeyCache } from '../live/key-cache.js';
import type { RatesView } from '../live/rates-view.js';
import type { MetricFamilyJSON } from './metric-json.js';
import { RequestMetrics } from './request-metrics.js';

export type IngestionTrigger = 'startup' | 'scheduled';
const TRIGGERS: readonly IngestionTrigger[] = ['startup', 'scheduled'];

/** Process metrics (CPU, memory, event loop, GC) belong to the process: one registry for all apps in it. */
let processRegistry: Promise<Registry> | undefined;
function processMetrics(): Promise<Registry> {
  return (processRegistry ??= import('prom-client').then(({ Registry, collectDefaultMetrics }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    return registry;
  }));
}

/** What this process has counted; the registry reads it when scraped. */
interface Counts {
  quotaRejections: number;
  ingestionRuns: Record<IngestionTrigger, number>;
  ingestionFailures: Record<IngestionTrigger, number>;
  /** Unix seconds; 0: never. */
  ingestionLastSuccess: number;
}

/**
 * The service's Prometheus metrics, in a registry of its own (tests run several servers in one
 * process). Everything is kept as plain numbers and read into prom-client only when scraped, so
 * prom-client is loaded at the first scrape, not at start, which it would slow down.
 */
export class ServiceMetrics {
  /** The two metrics updated on every answer, kept outside prom-client (request-metrics.ts). */
  private readonly requests = new RequestMetrics();
  private readonly counts: Counts = {
    quotaRejections: 0,
    ingestionRuns: { startup: 0, scheduled: 0 },
    ingestionFailures: { startup: 0, scheduled: 0 },
    ingestionLastSuccess: 0,
  };
  private registry: Promise<Registry> | undefined;

  constructor(
    private readonly view: RatesView,
    private readonly tracked: TrackedCurrencies,
    /** The keys this process authenticates with, for the age of their list. */
    private readonly keys?: Pick<KeyCache, 'ageSeconds'>,
  ) {}

  /** One answer: a counter and a histogram (plus a counter on 429). */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
    if (status === 429) this.counts.quotaRejections++;
  }

  /** Called when this process has run an ingestion, whatever its outcome. */
  recordIngestion(trigger: IngestionTrigger, succeeded: boolean, at: number = Date.now()): void {
    this.counts.ingestionRuns[trigger]++;
    if (succeeded) this.counts.ingestionLastSuccess = at / 1000;
    else this.counts.ingestionFailures[trigger]++;
  }

  /** The Prometheus text exposition (this service's metrics, then the process's) and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    const [own, process] = await Promise.all([(this.registry ??= this.ownRegistry()), processMetrics()]);
    const [ownText, processText] = await Promise.all([own.metrics(), process.metrics()]);
    return { body: `${this.requests.exposition()}\n${ownText}\n${processText}`, contentType: own.contentType };
  }

  /** The same metrics as prom-client's JSON, which a cluster's primary sums over its workers (cluster-metrics.ts). */
  async metricsAsJSON(): Promise<MetricFamilyJSON[]> {
    const [own, process] = await Promise.all([(this.registry ??= this.ownRegistry()), processMetrics()]);
    const [ownJSON, processJSON] = await Promise.all([own.getMetricsAsJSON(), process.getMetricsAsJSON()]);
    return [...this.requests.asJSON(), ...(ownJSON as unknown as MetricFamilyJSON[]), ...(processJSON as unknown as MetricFamilyJSON[])];
  }

  private async ownRegistry(): Promise<Registry> {
    const { Counter, Gauge, Registry } = await import('prom-client');
    const { counts, view, tracked, keys } = this;
    const registry = new Registry();
    const registers = [registry];
    new Counter({
      name: 'currency_rates_quota_rejections_total',
      help: 'Requests refused with 429 because the key had used up its quota',
      registers,
      collect() {
        this.reset();
        this.inc(counts.quotaRejections);
      },
    });
    const byTrigger = (name: string, help: string, of: Record<IngestionTrigger, number>) =>
      new Counter({
        name,
        help,
        labelNames: ['trigger'] as const,
        registers,
        collect() {
          this.reset();
          for (const trigger of TRIGGERS) this.inc({ trigger }, of[trigger]);
        },
      });
    byTrigger(
      'currency_rates_ingestion_runs_total',
      'Ingestion runs started by this server process (startup: store empty at start; scheduled: the daily run it claimed)',
      counts.ingestionRuns,
    );
    byTrigger('currency_rates_ingestion_failures_total', 'Ingestion runs of this server process that failed and wrote nothing', counts.ingestionFailures);
    new Gauge({
      name: 'currency_rates_ingestion_last_success_timestamp_seconds',
      help: 'When an ingestion run of this server process last succeeded (Unix seconds; 0: never)',
      registers,
      aggregator: 'max',
      collect() {
        this.set(counts.ingestionLastSuccess);
      },
    });
    new Gauge({
      name: 'currency_rates_days_loaded',
      help: 'Days with rates in the snapshot this process serves from',
      registers,
      aggregator: 'min',
      collect() {
        this.set(view.snapshot.dayCount);
      },
    });
    new Gauge({
      name: 'currency_rates_currencies_loaded',
      help: 'Served currencies with a rate on the newest loaded day (EUR, the reference, counts when served)',
      registers,
      aggregator: 'min',
      collect() {
        const newest = view.snapshot.latestWith([]);
        this.set(newest === undefined ? 0 : newest.size);
      },
    });
    new Gauge({
      name: 'currency_rates_currencies_served',
      help: 'Currencies this process is configured to serve (CURRENCIES)',
      registers,
      aggregator: 'first',
      collect() {
        this.set(tracked.list.length);
      },
    });
    new Gauge({
      name: 'currency_rates_latest_day_timestamp_seconds',
      help: 'The newest loaded day (Unix seconds of its midnight UTC; 0: no data): alert when it grows old',
      registers,
      aggregator: 'min',
      collect() {
        const newest = view.snapshot.latestWith([]);
        this.set(newest === undefined ? 0 : Date.parse(`${newest.date}T00:00:00Z`) / 1000);
      },
    });
    if (keys) {
      new Gauge({
        name: 'currency_rates_key_list_age_seconds',
        help: 'Seconds since the list of API keys this process authenticates with was last confirmed current (grows while the database is unreachable): alert above a few seconds',
        registers,
        // Of several workers, the oldest list is the one that matters.
        aggregator: 'max',
        collect() {
          this.set(keys.ageSeconds());
        },
      });
    }
    return registry;
  }
}
