import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqliteConnection } from '../../src/storage/sqlite/connection.js';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, childrenOf, spawnServer, withTimeout, workersListening } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const ANSWER = '{"from":"USD","to":"JPY","amount":"100","result":"15983.396097","rate":"159.833961","date":"2026-04-13"}';

/**
 * A server with a key, and a slow request to it: another process holds the database's write lock,
 * so the server's quota count, and with it the request, waits (busy_timeout) until it is released.
 */
async function slowRequest(t: TestContext, extraEnv: Record<string, string> = {}) {
  const dbPath = join(tempDir(t), 'graceful.db');
  const env = serviceEnv(dbPath, extraEnv);
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);
  // Every worker's signal handlers are in place once it listens.
  if (extraEnv.WORKERS) await workersListening(server, Number(extraEnv.WORKERS));
  const blocker = sqliteConnection(dbPath);
  t.after(() => blocker.close());
  blocker.exec('BEGIN IMMEDIATE');
  const answer = apiGet(server.url, '/api/v1/convert?from=USD&to=JPY&amount=100', key, 20_000);
  await sleep(300);
  /** Lets the slow request through; it must be answered in full, and the server exit 0. */
  const releaseAndExpectExit = async () => {
    blocker.exec('COMMIT');
    const slow = await withTimeout(answer, 20_000, 'the slow request');
    assert.deepEqual([slow.status, slow.text], [200, ANSWER]);
    assert.deepEqual(await withTimeout(server.exited, 10_000, 'the server to exit'), { code: 0, signal: null });
  };
  return { server, releaseAndExpectExit };
}

test('when SIGTERM arrives during a slow request, then that request is answered in full and the server exits 0', async (t) => {
  const { server, releaseAndExpectExit } = await slowRequest(t);
  server.child.kill('SIGTERM');
  await sleep(300);
  await releaseAndExpectExit();
});

test('when SIGTERM and SIGINT arrive again while it drains, then the drain goes on: the slow request is answered and the server exits 0', async (t) => {
  const { server, releaseAndExpectExit } = await slowRequest(t);
  server.child.kill('SIGTERM');
  await sleep(200);
  server.child.kill('SIGTERM');
  server.child.kill('SIGINT');
  await sleep(200);
  await releaseAndExpectExit();
});

test('when WORKERS=2 and the whole group gets SIGTERM (each worker, and the primary, which relays it), then the slow request is answered and the server exits 0', async (t) => {
  const { server, releaseAndExpectExit } = await slowRequest(t, { WORKERS: '2' });
  const workers = childrenOf(server.child.pid!);
  assert.equal(workers.length, 2);
  for (const pid of workers) process.kill(pid, 'SIGTERM');
  await sleep(200);
  server.child.kill('SIGTERM');
  await sleep(200);
  await releaseAndExpectExit();
});
