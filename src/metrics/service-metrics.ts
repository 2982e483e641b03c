import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { TrackedCurrencies } from '../domain/currencies.js';
import type { RatesView } from '../live/rates-view.js';
import { RequestMetrics } from './request-metrics.js';

export type IngestionTrigger = 'startup' | 'scheduled';

/** Process metrics (CPU, memory, event loop, GC) belong to the process: one registry for all apps in it. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics, in a registry of its own (tests run several servers in one
 * process). Request metrics are updated once per answer; the data gauges are read from the live
 * snapshot only when scraped.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  /** The two metrics updated on every answer, kept outside prom-client (request-metrics.ts). */
  private readonly requests = new RequestMetrics();

  private readonly quotaRejections = new Counter({
    name: 'currency_rates_quota_rejections_total',
    help: 'Requests refused with 429 because the key had used up its quota',
    registers: [this.registry],
  });

  private readonly ingestionRuns = new Counter({
    name: 'currency_rates_ingestion_runs_total',
    help: 'Ingestion runs started by this server process (startup: store empty at start; scheduled: the daily run it claimed)',
    labelNames: ['trigger'] as const,
    registers: [this.registry],
  });

  private readonly ingestionFailures = new Counter({
    name: 'currency_rates_ingestion_failures_total',
    help: 'Ingestion runs of this server process that failed and wrote nothing',
    labelNames: ['trigger'] as const,
    registers: [this.registry],
  });

  private readonly ingestionLastSuccess = new Gauge({
    name: 'currency_rates_ingestion_last_success_timestamp_seconds',
    help: 'When an ingestion run of this server process last succeeded (Unix seconds; 0: never)',
    registers: [this.registry],
  });

  constructor(view: RatesView, tracked: TrackedCurrencies) {
    for (const trigger of ['startup', 'scheduled'] as const) {
      this.ingestionRuns.inc({ trigger }, 0);
      this.ingestionFailures.inc({ trigger }, 0);
    }
    new Gauge({
      name: 'currency_rates_days_loaded',
      help: 'Days with rates in the snapshot this process serves from',
      registers: [this.registry],
      collect() {
        this.set(view.snapshot.dayCount);
      },
    });
    new Gauge({
      name: 'currency_rates_currencies_loaded',
      help: 'Served currencies with a rate on the newest loaded day (EUR, the reference, counts when served)',
      registers: [this.registry],
      collect() {
        const newest = view.snapshot.latestWith([]);
        this.set(newest === undefined ? 0 : newest.rates.size + (tracked.has('EUR') ? 1 : 0));
      },
    });
    new Gauge({
      name: 'currency_rates_currencies_served',
      help: 'Currencies this process is configured to serve (CURRENCIES)',
      registers: [this.registry],
      collect() {
        this.set(tracked.list.length);
      },
    });
    new Gauge({
      name: 'currency_rates_latest_day_timestamp_seconds',
      help: 'The newest loaded day (Unix seconds of its midnight UTC; 0: no data): alert when it grows old',
      registers: [this.registry],
      collect() {
        const newest = view.snapshot.latestWith([]);
        this.set(newest === undefined ? 0 : Date.parse(`${newest.date}T00:00:00Z`) / 1000);
      },
    });
  }

  /** One answer: a counter and a histogram (plus a counter on 429). */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
    if (status === 429) this.quotaRejections.inc();
  }

  /** Called when this process has run an ingestion, whatever its outcome. */
  recordIngestion(trigger: IngestionTrigger, succeeded: boolean, at: number = Date.now()): void {
    this.ingestionRuns.inc({ trigger });
    if (succeeded) this.ingestionLastSuccess.set(at / 1000);
    else this.ingestionFailures.inc({ trigger });
  }

  /** The Prometheus text exposition: this service's metrics, then the process's. */
  async exposition(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${this.requests.exposition()}\n${own}\n${process}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
