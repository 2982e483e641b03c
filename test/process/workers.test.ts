import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer, withTimeout } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
};

test('when serve runs with WORKERS=2 on SQLite, then two workers share the port, the quota is exact across them, and SIGTERM stops them all with exit code 0', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'workers.db'), { WORKERS: '2', QUOTA_LIMIT: '100' });
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);
  const primary = server.child.pid!;
  await pollUntil(async () => (childrenOf(primary).length === 2 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'two workers' });

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
