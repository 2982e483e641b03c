import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test, type TestContext } from 'node:test';
import pino from 'pino';
import { TrackedCurrencies } from '../../src/domain/currencies.js';
import { runClaimedIngestion } from '../../src/ingest/scheduled-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { RatesView } from '../../src/live/rates-view.js';
import { ServiceMetrics } from '../../src/metrics/service-metrics.js';
import { openStores } from '../../src/storage/open-stores.js';
import { errorBody, expectError } from '../helpers/http-expect.js';
import { FIXTURES, ManualClock, read, startTestApp, type TestServer } from '../helpers/test-server.js';
import { rawRequest } from '../helpers/raw-http.js';

/** GET /metrics: Prometheus text, counters that move with traffic, its own token, METRICS=off. */

const V1 = '/api/v1';

/** The value of one sample (`name{labels}`, labels in the order prom-client writes them), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const requests = (route: string, status: number, method = 'GET') =>
  `http_requests_total{route="${route}",method="${method}",status="${status}"}`;

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<string> {
  const answer = await read(await server.get('/metrics', { auth: false, headers }));
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return answer.text;
}

test('when traffic comes, then the request counters, the histogram and the data gauges show it, by route template', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  await server.get(`${V1}/rates/latest`);
  await server.get(`${V1}/rates/latest?base=USD`);
  await server.get(`${V1}/rates/2026-04-13`);
  await server.get(`${V1}/rates/latest`, { auth: false });
  await server.get('/no/such/path');

  const first = await scrape(server);
  assert.equal(sample(first, requests(`${V1}/rates/latest`, 200)), 2);
  assert.equal(sample(first, requests(`${V1}/rates/latest`, 401)), 1);
  assert.equal(sample(first, requests(`${V1}/rates/:date`, 200)), 1);
  assert.equal(sample(first, requests('unmatched', 404)), 1);
  assert.ok(!first.includes('2026-04-13"') && !first.includes('/no/such/path'), 'labels are route templates, never raw URLs');
  assert.equal(sample(first, `http_request_duration_seconds_count{route="${V1}/rates/latest"}`), 3);
  assert.equal(sample(first, `http_request_duration_seconds_bucket{le="+Inf",route="${V1}/rates/latest"}`), 3);
  assert.equal(sample(first, 'currency_rates_days_loaded'), 4);
  assert.equal(sample(first, 'currency_rates_currencies_loaded'), 6, 'EUR + USD JPY GBP HUF CHF on 2026-04-13 (BGN stopped)');
  assert.equal(sample(first, 'currency_rates_currencies_served'), 31);
  assert.equal(sample(first, 'currency_rates_latest_day_timestamp_seconds'), Date.UTC(2026, 3, 13) / 1000);
  assert.equal(sample(first, 'currency_rates_quota_rejections_total'), 0);
  assert.equal(sample(first, 'currency_rates_ingestion_runs_total{trigger="startup"}'), 0, 'INGEST_ON_EMPTY=off: no run');
  assert.ok(first.includes('process_resident_memory_bytes'), 'process metrics too');

  await server.get(`${V1}/currencies`);
  await server.get(`${V1}/rates/latest`);
  const second = await scrape(server);
  assert.equal(sample(second, requests(`${V1}/rates/latest`, 200)), 3, 'the counter moved');
  assert.equal(sample(second, requests(`${V1}/currencies`, 200)), 1);
  assert.equal(sample(second, requests('/metrics', 200)), 1, 'the first scrape is counted too');

  const counted = await read(await server.get(`${V1}/currencies`));
  assert.equal(counted.headers.get('x-ratelimit-remaining'), String(1000 - 6), 'scrapes never touch the quota');
});

test('when a key has used up its quota, then each 429 counts as a quota rejection', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'], env: { QUOTA_LIMIT: '1' } });
  await server.get(`${V1}/currencies`);
  await server.get(`${V1}/currencies`);
  await server.get(`${V1}/convert?from=USD&to=JPY&amount=1`);
  const text = await scrape(server);
  assert.equal(sample(text, 'currency_rates_quota_rejections_total'), 2);
  assert.equal(sample(text, requests(`${V1}/currencies`, 429)), 1);
});

test('when METRICS_TOKEN is set, then /metrics needs it as a bearer token (401 in the spec shape otherwise)', async (t) => {
  const token = 'scrape-token-0123456789';
  const server = await startTestApp(t, { env: { METRICS_TOKEN: token } });
  const missing = await expectError(server.get('/metrics', { auth: false }), 401, 'Missing or malformed Authorization header');
  assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
  await expectError(server.get('/metrics', { auth: false, headers: { authorization: 'Bearer wrong-token-0123456789' } }), 401, 'Invalid metrics token');
  await expectError(server.get('/metrics'), 401, 'Invalid metrics token'); // an API key is not the metrics token
  assert.match(await scrape(server, { authorization: `bearer ${token}` }), /http_requests_total/);
});

test('when METRICS=off, then /metrics is an unknown path', async (t) => {
  const server = await startTestApp(t, { env: { METRICS: 'off' } });
  const answer = await read(await server.get('/metrics', { auth: false }));
  assert.equal(answer.status, 404);
  assert.equal(answer.text, JSON.stringify(errorBody(404, 'Cannot GET /metrics')));
});

/** A local stand-in for the ECB feed. */
async function feed(t: TestContext): Promise<string> {
  const body = readFileSync(FIXTURES + 'daily.xml');
  const server = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}/eurofxref-daily.xml`;
}

test('when this process runs the scheduled ingestion, then its runs, failures and last success are counted', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const tracked = new TrackedCurrencies(['EUR', 'USD']);
  const metrics = new ServiceMetrics(new RatesView(stores.rates, tracked), tracked);
  const clock = new ManualClock(Date.UTC(2026, 6, 6, 16, 30));
  const run = (url: string) =>
    runClaimedIngestion(
      {
        rates: stores.rates,
        jobs: stores.jobs,
        adapter: { ...ecb, urls: () => [url] },
        log: pino({ level: 'silent' }),
        clock,
        onLanded: async () => undefined,
        onRun: (landed) => metrics.recordIngestion('scheduled', landed, clock.now()),
      },
      new Date(clock.now()).toISOString().slice(0, 10),
      'this-process',
    );

  assert.equal(await run(await feed(t)), true);
  clock.advance(86_400_000);
  assert.equal(await run('http://127.0.0.1:9/refused.xml'), true, 'claimed, and failed');
  const { body: text } = await metrics.exposition();
  assert.equal(sample(text, 'currency_rates_ingestion_runs_total{trigger="scheduled"}'), 2);
  assert.equal(sample(text, 'currency_rates_ingestion_failures_total{trigger="scheduled"}'), 1);
  assert.equal(sample(text, 'currency_rates_ingestion_last_success_timestamp_seconds'), Date.UTC(2026, 6, 6, 16, 30) / 1000);
  assert.equal(sample(text, 'currency_rates_ingestion_runs_total{trigger="startup"}'), 0);
});

test('when Node refuses a request or the router cannot decode its path, then the answer is counted like any other', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const { port } = new URL(server.url);
  // Request line and headers past the 32 KB limit: Node's parser refuses it before Fastify sees it.
  const tooLarge = await rawRequest('127.0.0.1', Number(port), { target: `${V1}/currencies`, headers: [['x-filler', 'x'.repeat(40 * 1024)]] });
  assert.equal(tooLarge.status, 431);
  assert.equal(tooLarge.text, '{"statusCode":431,"message":"The request line and headers are larger than 32768 bytes","error":"Request Header Fields Too Large"}');
  // An invalid percent-encoding in a path parameter: the router's own error.
  const badEncoding = await rawRequest('127.0.0.1', Number(port), { target: `${V1}/rates/%E0%A4%A` });
  assert.equal(badEncoding.status, 400);

  const text = await scrape(server);
  assert.equal(sample(text, requests('unmatched', 431)), 1);
  // No route matched either: both under `unmatched`, never the raw URL.
  assert.equal(sample(text, requests('unmatched', 400)), 1);
});
