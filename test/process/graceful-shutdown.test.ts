import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sqliteConnection } from '../../src/storage/sqlite/connection.js';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, spawnServer, withTimeout } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

test('when SIGTERM arrives during a slow request, then that request is answered in full and the server exits 0', async (t) => {
  const dbPath = join(tempDir(t), 'graceful.db');
  const env = serviceEnv(dbPath);
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);

  // Another process holds the database's write lock, so the server's quota count, and with it the
  // request, waits (busy_timeout) until the lock is released.
  const blocker = sqliteConnection(dbPath);
  t.after(() => blocker.close());
  blocker.exec('BEGIN IMMEDIATE');
  const slow = apiGet(server.url, '/api/v1/convert?from=USD&to=JPY&amount=100', key, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  blocker.exec('COMMIT');

  const answer = await withTimeout(slow, 20_000, 'the slow request');
  assert.equal(answer.status, 200);
  assert.equal(answer.text, '{"from":"USD","to":"JPY","amount":"100","result":"15983.396097","rate":"159.833961","date":"2026-04-13"}');
  assert.deepEqual(await withTimeout(server.exited, 10_000, 'the server to exit'), { code: 0, signal: null });
});
