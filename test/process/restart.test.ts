import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, spawnServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/** DECISIONS §4 "Counts survive a restart", and a clean stop on SIGTERM. */

async function preparedDatabase(dir: string) {
  const env = serviceEnv(join(dir, 'rates.db'));
  const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(ingested.code, 0, describeRun(ingested));
  const created = await runCli(['keys', 'create', '--name', 'restart'], env);
  assert.equal(created.code, 0, describeRun(created));
  return { env, key: created.stdout.trim().split('\n').pop() ?? '' };
}

test('when a server counted N requests and is killed with SIGKILL, then a server restarted on the same file continues the count from N', async (t) => {
  const { env, key } = await preparedDatabase(tempDir(t, 'currency-rates-restart-'));
  const first = await spawnServer(t, env);
  const counted = 7;
  const paths = ['/api/v1/rates/latest', '/api/v1/currencies', '/api/v1/rates/2026-04-11', '/api/v1/convert?from=USD&to=JPY&amount=0'];
  let last = await apiGet(first.url, paths[0]!, key);
  for (let i = 1; i < counted; i++) last = await apiGet(first.url, paths[i % paths.length]!, key);
  // 200, 404 and 400 answers all count (DECISIONS §4).
  assert.equal(last.headers.get('x-ratelimit-remaining'), String(1000 - counted), last.text);
  const reset = last.headers.get('x-ratelimit-reset');
  assert.ok(reset, 'X-RateLimit-Reset is present');

  const killed = await first.stop('SIGKILL');
  assert.equal(killed.signal, 'SIGKILL');

  const second = await spawnServer(t, env);
  const after = await apiGet(second.url, '/api/v1/rates/latest', key);
  assert.equal(after.status, 200, after.text);
  assert.equal(after.headers.get('x-ratelimit-remaining'), String(1000 - counted - 1), 'the count continues from N');
  assert.equal(after.headers.get('x-ratelimit-reset'), reset, 'the same period goes on');
  assert.equal((await second.stop('SIGTERM')).code, 0);
});

test('when a running server gets SIGTERM, then it finishes and exits 0 within 10 s', async (t) => {
  const { env, key } = await preparedDatabase(tempDir(t, 'currency-rates-sigterm-'));
  const server = await spawnServer(t, env);
  const answer = await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', key);
  assert.equal(answer.status, 200, answer.text);
  // A request in flight when the signal arrives still gets its answer. One not yet received may
  // be refused; caught at once, so that its refusal is not an unhandled rejection meanwhile.
  const inFlight = apiGet(server.url, '/api/v1/rates/2022-08-31', key).catch((err: unknown) => err as Error);
  const stopped = await server.stop('SIGTERM', 10_000);
  assert.deepEqual(stopped, { code: 0, signal: null }, `exit status; stderr:\n${server.stderr()}`);
  const late = await inFlight;
  if (!(late instanceof Error)) assert.equal(late.status, 200, late.text);
});
