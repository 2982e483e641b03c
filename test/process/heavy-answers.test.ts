import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_TRACKED } from '../../src/domain/currencies.js';
import { describeRun, runCli, serviceEnv } from '../helpers/cli.js';
import { HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { apiGet, spawnServer } from '../helpers/server-process.js';
import { NEEDS_PYTHON, stalledReaders } from '../helpers/stalled-readers.js';
import { tempDir } from '../helpers/test-server.js';

/**
 * DECISIONS §14 on a server process holding the whole ECB history, with its production limits:
 * clients that ask for the whole history and never read are cut within 30 s without growing the
 * server's memory, and thirty whole-history answers produced at once leave the probes answered.
 */

const WHOLE = '/api/v1/rates/1999-01-04..';
const STALL_LINE = 'connection closed: it took no bytes of its answer for too long';

/** Reads each path (argv after URL and key) to its end at once; prints their statuses. */
const READERS = `
const [url, key, ...paths] = process.argv.slice(1);
const statuses = await Promise.all(paths.map(async (path) => {
  const answer = await fetch(url + path, { headers: { authorization: 'Bearer ' + key } });
  await answer.arrayBuffer();
  return answer.status;
}));
console.log(statuses.join(' '));
`;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1]) / 1024;
}

test('heavy answers on a server process with the whole history', NEEDS_PYTHON, async (t) => {
  const env = serviceEnv(join(tempDir(t, 'currency-rates-heavy-'), 'rates.db'), { LOG_LEVEL: 'info', RESPONSE_CACHE_MB: '8' });
  const ingest = await runCli(['ingest', '--file', HISTORY_ZIP], env, { timeoutMs: 60_000 });
  assert.equal(ingest.code, 0, describeRun(ingest));
  const created = await runCli(['keys', 'create', '--name', 'heavy'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env, { readyTimeoutMs: 30_000 });
  const pid = server.child.pid!;
  const whole = await apiGet(server.url, WHOLE, key, 60_000);
  assert.equal(whole.status, 200);
  const wholeBytes = Buffer.byteLength(whole.text);

  await t.test('when 40 clients ask for the whole history and never read, then RSS grows ≤ 100 MB and each is closed within 45 s', async () => {
    const bases = DEFAULT_TRACKED.filter((code) => code !== 'EUR').slice(0, 4);
    // 36 on one answer with junk parameters (one kept body for all: the red team's attack), and 4
    // on answers of their own (more than RESPONSE_CACHE_MB=8 keeps: some are written again in pieces).
    const paths = [...Array.from({ length: 36 }, (_, i) => `${WHOLE}?u=${i}`), ...bases.map((base) => `${WHOLE}?base=${base}`)];
    // The same days and bases computed once first (as CSV): what the server then holds is its
    // working state, and what the attack adds is what its connections hold.
    for (const base of bases) assert.equal((await apiGet(server.url, `${WHOLE}?base=${base}&format=csv`, key, 60_000)).status, 200);
    const before = rssMb(pid);
    const clients = await stalledReaders(t, server.port, key, paths);
    const sentAt = performance.now();
    let peak = before;
    let closed = 0;
    while (performance.now() - sentAt < 45_000) {
      peak = Math.max(peak, rssMb(pid));
      closed = server.stdout().split(STALL_LINE).length - 1;
      if (closed >= paths.length) break;
      await sleep(200);
    }
    const closedAfter = performance.now() - sentAt;
    t.diagnostic(`RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB; ${closed} closed after ${(closedAfter / 1000).toFixed(1)} s`);
    assert.equal(closed, paths.length, 'every stalled connection is closed and logged once, within 45 s');
    assert.ok(peak - before <= 100, `RSS grew by ${(peak - before).toFixed(0)} MB`);
    for (const [i, { closed: cut, bytes }] of (await clients.read()).entries()) {
      const path = paths[i]!;
      assert.ok(cut, `${path}: the server closed the connection`);
      assert.ok(bytes < wholeBytes, `${path}: before the whole answer was sent (${bytes} bytes)`);
    }
    assert.equal((await apiGet(server.url, '/health')).status, 200);
  });

  await t.test('when 30 whole-history answers are produced at once, then /health and a cached latest are answered meanwhile', async () => {
    const latest = '/api/v1/rates/latest';
    assert.equal((await apiGet(server.url, latest, key)).status, 200);
    const bases = DEFAULT_TRACKED.slice(0, 30);
    const paths = bases.map((base) => `${WHOLE}?base=${base}&symbols=${bases.filter((code) => code !== base).join(',')}`);
    // The readers in a process of their own: reading 100 MB here would delay the probes' own answers.
    const readers = spawn(process.execPath, ['--input-type=module', '-e', READERS, server.url, key, ...paths], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.after(() => readers.kill());
    let output = '';
    readers.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    let finished = false;
    const heavy = once(readers, 'exit').then(() => {
      finished = true;
      return output.trim().split(' ').map(Number);
    });
    const probes: { ms: number; during: boolean }[] = [];
    const probing = (async () => {
      while (!finished) {
        for (const [path, auth] of [['/health', undefined], [latest, key]] as const) {
          const started = performance.now();
          const answer = await apiGet(server.url, path, auth);
          assert.equal(answer.status, 200, path);
          probes.push({ ms: performance.now() - started, during: !finished });
        }
        await sleep(20);
      }
    })();
    assert.deepEqual(await heavy, bases.map(() => 200), 'every whole-history answer read to its end');
    await probing;
    const during = probes.filter((probe) => probe.during).map((probe) => probe.ms).sort((a, b) => a - b);
    const p99 = during[Math.ceil(during.length * 0.99) - 1] ?? NaN;
    t.diagnostic(`${during.length} probes answered while the 30 answers were produced; p99 ${p99.toFixed(1)} ms (npm run bench measures it)`);
    assert.ok(during.length >= 10, `the probes were answered meanwhile (${during.length})`);
  });
});
