import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { rawRequest } from '../helpers/raw-http.js';
import { childrenOf, pollUntil, spawnServer, withTimeout } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** DECISIONS §12: with WORKERS > 1, /metrics reports the whole instance (all workers summed), never one worker. */

/** The value of one sample (`name{labels}`, labels in the order prom-client writes them), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const LATEST = '/api/v1/rates/latest';

test('when serve runs with WORKERS=2 and requests reach both workers, then every scrape, whichever worker answers it, shows the whole instance', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'workers-metrics.db'), { WORKERS: '2', QUOTA_LIMIT: '1000' });
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env); // HOST 127.0.0.1, no METRICS_TOKEN: /metrics answers without a token
  const primary = server.child.pid!;
  await pollUntil(async () => (childrenOf(primary).length === 2 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'two workers' });

  // Each on a connection of its own: the primary hands connections to the workers in turn.
  const get = (target: string, headers: [string, string][] = []) =>
    rawRequest('127.0.0.1', server.port, { target, headers, timeoutMs: 10_000 });
  await withTimeout(
    (async () => {
      for (let i = 0; i < 40; i++) assert.equal((await get(`${LATEST}?symbols=USD`, [['authorization', `Bearer ${key}`]])).status, 200);
    })(),
    30_000,
    '40 requests',
  );

  for (let scrape = 1; scrape <= 6; scrape++) {
    const answer = await get('/metrics');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const where = `scrape ${scrape}:\n${answer.text.slice(0, 3000)}`;
    assert.equal(sample(answer.text, `http_requests_total{route="${LATEST}",method="GET",status="200"}`), 40, where);
    assert.equal(sample(answer.text, `http_request_duration_seconds_count{route="${LATEST}"}`), 40, where);
    assert.equal(sample(answer.text, `http_request_duration_seconds_bucket{le="+Inf",route="${LATEST}"}`), 40, where);
    assert.equal(sample(answer.text, 'http_requests_total{route="/metrics",method="GET",status="200"}') ?? 0, scrape - 1, `${where}\nevery earlier scrape, on either worker`);
    // Facts about the instance's data are the same in every worker: never summed.
    assert.equal(sample(answer.text, 'currency_rates_days_loaded'), 4, where);
    assert.equal(sample(answer.text, 'currency_rates_currencies_served'), 31, where);
    assert.equal(sample(answer.text, 'currency_rates_latest_day_timestamp_seconds'), Date.UTC(2026, 3, 13) / 1000, where);
    assert.equal(sample(answer.text, 'currency_rates_quota_rejections_total'), 0, where);
    assert.ok(answer.text.includes('\nprocess_resident_memory_bytes '), `${where}\nprocess metrics too`);
    assert.equal(answer.text.split('\n').filter((line) => line.startsWith('# TYPE http_requests_total ')).length, 1, `${where}\none family, not one per worker`);
  }

  assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
});
