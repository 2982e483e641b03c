import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqliteConnection } from '../../src/storage/sqlite/connection.js';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, childrenOf, pollUntil, spawnServer, untilLogged, withTimeout, workersListening } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

test('when serve runs with WORKERS=2 on SQLite, then two workers share the port, the quota is exact across them, and SIGTERM stops them all with exit code 0', async (t) => {
  const { server, key, primary } = await twoWorkers(t, join(tempDir(t), 'workers.db'), { QUOTA_LIMIT: '100' });

  let next = 0;
  const statuses: number[] = [];
  const client = async () => {
    while (next++ < 150) statuses.push((await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', key)).status);
  };
  await withTimeout(Promise.all(Array.from({ length: 20 }, client)), 30_000, '150 requests');
  assert.equal(statuses.filter((status) => status === 200).length, 100);
  assert.equal(statuses.filter((status) => status === 429).length, 50);

  const workers = childrenOf(primary);
  assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
  for (const pid of workers) assert.throws(() => process.kill(pid, 0), 'worker is gone');
});

/** A WORKERS=2 server on `dbPath` with a key, once both workers are serving. */
async function twoWorkers(t: TestContext, dbPath: string, extra: Record<string, string> = {}) {
  const env = serviceEnv(dbPath, { WORKERS: '2', ...extra });
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);
  await workersListening(server, 2);
  return { server, key, primary: server.child.pid! };
}

test('when a worker dies and SIGTERM follows while the other drains, then no worker is started after the signal and the server exits 0', async (t) => {
  const dbPath = join(tempDir(t), 'workers.db');
  const { server, key, primary } = await twoWorkers(t, dbPath);
  process.kill(childrenOf(primary)[0]!, 'SIGKILL');
  await untilLogged(server, /stopped \(SIGKILL\); starting another/, 'the death to be seen');
  // The worker left takes a request that waits for the database's write lock, held here.
  const blocker = sqliteConnection(dbPath);
  t.after(() => blocker.close());
  blocker.exec('BEGIN IMMEDIATE');
  const slow = apiGet(server.url, '/api/v1/convert?from=USD&to=JPY&amount=100', key, 20_000);
  await sleep(200);
  server.child.kill('SIGTERM');
  await sleep(1500); // past the second after which the dead worker would have been replaced
  blocker.exec('COMMIT');
  assert.equal((await withTimeout(slow, 20_000, 'the slow request')).status, 200);
  assert.deepEqual(await withTimeout(server.exited, 10_000, 'the server to exit'), { code: 0, signal: null });
  assert.deepEqual(childrenOf(primary), [], 'no worker left behind');
});

test('when a replacement worker cannot start (its database out of reach for now), then the other serves on and it is tried again until it starts', async (t) => {
  const dir = join(tempDir(t), 'data');
  mkdirSync(dir);
  const { server, key, primary } = await twoWorkers(t, join(dir, 'workers.db'));
  // The running workers keep their open files; a new one finds a file where the folder was.
  renameSync(dir, `${dir}-away`);
  writeFileSync(dir, 'not a folder');
  const [gone, stays] = childrenOf(primary);
  process.kill(gone!, 'SIGKILL');
  await untilLogged(server, /could not start \(exit code 1\); trying again in 2 s/, 'a failed start to be logged');
  assert.deepEqual(childrenOf(primary).filter((pid) => pid !== stays), [], 'the other worker serves alone');
  assert.equal((await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', key)).status, 200);

  rmSync(dir);
  renameSync(`${dir}-away`, dir);
  await pollUntil(async () => (childrenOf(primary).length === 2 ? true : undefined), { timeoutMs: 15_000, intervalMs: 100, what: 'a worker started again' });
  assert.equal((await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', key)).status, 200);
  assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
});

test('when the first workers cannot start (their database out of reach), then the server stops with exit code 1 and says why, on standard error and in its log', async (t) => {
  const dir = join(tempDir(t), 'data');
  writeFileSync(dir, 'not a folder');
  const run = await runCli(['serve'], serviceEnv(join(dir, 'workers.db'), { WORKERS: '2', PORT: '0', HOST: '127.0.0.1' }), { timeoutMs: 20_000 });
  assert.equal(run.code, 1, describeRun(run));
  assert.match(run.stderr, /^currency-rates serve: /m);
  assert.match(run.stdout, /"level":60,.*"msg":"worker \d+ failed to start \(exit code 1\); stopping"/, 'the primary flushes its log before it exits');
});
