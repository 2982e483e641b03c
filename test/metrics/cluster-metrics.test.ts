import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AggregatorRegistry } from 'prom-client';
import { TrackedCurrencies } from '../../src/domain/currencies.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { RatesView } from '../../src/live/rates-view.js';
import { RequestMetrics } from '../../src/metrics/request-metrics.js';
import { ServiceMetrics } from '../../src/metrics/service-metrics.js';
import { openStores } from '../../src/storage/open-stores.js';
import { FIXTURES } from '../helpers/test-server.js';
import { promClientPair } from '../helpers/prom-client-pair.js';

/**
 * What a cluster's primary does with its workers' metrics (cluster-metrics.ts): prom-client's
 * AggregatorRegistry over each worker's JSON. The end to end case is test/process/workers-metrics.
 */

type Observation = [string, string, number, number];
// Durations are binary fractions, so sums come out the same in any order.
const FIRST: Observation[] = [
  ['/api/v1/rates/latest', 'GET', 200, 0.0001220703125],
  ['/api/v1/rates/latest', 'GET', 200, 0.25], // on a bound: in that bucket
  ['/api/v1/rates/latest', 'GET', 429, 0.001953125],
  ['unmatched', 'POST', 404, 3.5], // above every bound: +Inf only
];
const SECOND: Observation[] = [
  ['/api/v1/rates/latest', 'GET', 200, 0.0625],
  ['/api/v1/rates/:date', 'GET', 200, 0.5],
  ['/api/v1/rates/latest', 'HEAD', 200, 0.0078125],
  ['unmatched', 'POST', 404, 1],
];

test("when answers are observed, then asJSON is what prom-client's getMetricsAsJSON gives for the same observations", async () => {
  const ours = new RequestMetrics();
  const theirs = promClientPair();
  for (const observation of [...FIRST, ...SECOND]) {
    ours.observe(...observation);
    theirs.observe(...observation);
  }
  const withoutExemplars = (await theirs.registry.getMetricsAsJSON()).map(({ values, ...family }) => ({
    ...family,
    values: (values as { exemplar?: unknown }[]).map(({ exemplar: _exemplar, ...value }) => value),
  }));
  assert.deepEqual(ours.asJSON(), withoutExemplars);
});

test('when two workers answered, then their request metrics summed are what one registry counting every answer writes', async () => {
  const first = new RequestMetrics();
  const second = new RequestMetrics();
  const theirs = promClientPair();
  for (const observation of FIRST) {
    first.observe(...observation);
    theirs.observe(...observation);
  }
  for (const observation of SECOND) {
    second.observe(...observation);
    theirs.observe(...observation);
  }
  // Through JSON, as the parts travel over the cluster's IPC channel.
  const parts = [first.asJSON(), second.asJSON()].map((part) => JSON.parse(JSON.stringify(part)) as object[]);
  assert.equal(await AggregatorRegistry.aggregate(parts).metrics(), await theirs.registry.metrics());
});

test('when two workers serve one instance, then its counters are summed and the facts about its data are not', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  await runIngestion(stores.rates, ecb, { file: `${FIXTURES}hist.csv` });
  const tracked = new TrackedCurrencies(['EUR', 'USD', 'JPY']);
  const workers = await Promise.all(
    [0, 1].map(async () => {
      const view = new RatesView(stores.rates, tracked);
      await view.refresh();
      return new ServiceMetrics(view, tracked);
    }),
  );
  workers[0]!.observeRequest('/api/v1/rates/latest', 'GET', 429, 0.001);
  workers[1]!.observeRequest('/api/v1/rates/latest', 'GET', 429, 0.001);
  workers[1]!.observeRequest('/api/v1/rates/latest', 'GET', 200, 0.001);
  workers[0]!.recordIngestion('scheduled', true, Date.UTC(2026, 3, 13, 16));
  workers[1]!.recordIngestion('scheduled', true, Date.UTC(2026, 3, 14, 16));
  workers[1]!.recordIngestion('startup', false);

  const parts = await Promise.all(workers.map(async (worker) => JSON.parse(JSON.stringify(await worker.metricsAsJSON())) as object[]));
  const text = await AggregatorRegistry.aggregate(parts).metrics();
  const sample = (series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  assert.equal(sample('http_requests_total{route="/api/v1/rates/latest",method="GET",status="429"}'), 2);
  assert.equal(sample('http_requests_total{route="/api/v1/rates/latest",method="GET",status="200"}'), 1);
  assert.equal(sample('http_request_duration_seconds_count{route="/api/v1/rates/latest"}'), 3);
  assert.equal(sample('currency_rates_quota_rejections_total'), 2);
  assert.equal(sample('currency_rates_ingestion_runs_total{trigger="scheduled"}'), 2);
  assert.equal(sample('currency_rates_ingestion_runs_total{trigger="startup"}'), 1);
  assert.equal(sample('currency_rates_ingestion_failures_total{trigger="startup"}'), 1);
  assert.equal(sample('currency_rates_ingestion_last_success_timestamp_seconds'), Date.UTC(2026, 3, 14, 16) / 1000, 'the latest success');
  assert.equal(sample('currency_rates_days_loaded'), 4);
  assert.equal(sample('currency_rates_currencies_loaded'), 3, 'EUR + USD JPY');
  assert.equal(sample('currency_rates_currencies_served'), 3);
  assert.equal(sample('currency_rates_latest_day_timestamp_seconds'), Date.UTC(2026, 3, 13) / 1000);
  assert.equal(text.split('\n').filter((line) => line === '# TYPE currency_rates_days_loaded gauge').length, 1);
  assert.ok(text.includes('\nprocess_resident_memory_bytes '), 'process metrics too');
});
