import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { summarise } from '../../bench/load.js';
import { spawnAndWait } from '../../bench/processes.js';
import { correctionInterval, uncorrected, wrkInstalled, wrkLoad } from '../../bench/wrk-load.js';
import { tempDir } from '../helpers/temp-dir.js';

/** wrk 4's `stats_correct`, transcribed: what the benchmark must undo. */
function corrected(measured: ReadonlyMap<number, number>, interval: number): Map<number, number> {
  const max = Math.max(...measured.keys());
  const data = new Map(measured);
  for (let n = interval * 2; n <= max; n++) {
    const count = measured.get(n) ?? 0;
    for (let m = n - interval; count > 0 && m > interval; m -= interval) data.set(m, (data.get(m) ?? 0) + count);
  }
  return data;
}

test('wrk’s correction for coordinated omission is undone exactly, and a histogram it could not have made is refused', () => {
  // Latencies in µs: most near 1,800, a tail past several intervals, some exactly on multiples.
  const measured = new Map([[900, 3], [1_750, 40], [1_800, 120], [2_000, 7], [3_600, 5], [5_401, 2], [9_000, 1], [12_345, 1]]);
  const interval = 1_800;
  const made = corrected(measured, interval);
  assert.ok([...made.values()].reduce((a, b) => a + b) > [...measured.values()].reduce((a, b) => a + b), 'the correction added answers');
  assert.deepEqual(uncorrected(made, interval), measured);
  // Under two intervals nothing was added.
  assert.deepEqual(uncorrected(new Map([[100, 4], [3_500, 2]]), interval), new Map([[100, 4], [3_500, 2]]));
  // No interval (fewer answers than connections): wrk corrected nothing.
  assert.deepEqual(uncorrected(made, undefined), made);
  // Two answers at 5,401 µs mean two added at 3,601 µs: a histogram with one there is not wrk's.
  assert.throws(() => uncorrected(new Map([[3_601, 1], [5_401, 2]]), interval), /not one its correction made \(at 3601 µs: 1 recorded, 2 added\)/);
  assert.equal(correctionInterval(1_000_000, 26_418), 1_893);
  assert.equal(correctionInterval(1_000_000, 49), undefined);
});

// Counts each path it is asked for and every Authorization header it sees; /refused answers 404.
const COUNTING_SERVER = `
  const seen = {};
  let authorized = 0;
  require('node:http').createServer((request, response) => {
    if (request.url === '/seen') return response.end(JSON.stringify({ seen, authorized }));
    seen[request.url] = (seen[request.url] ?? 0) + 1;
    if (request.headers.authorization === 'Bearer k') authorized++;
    response.statusCode = request.url === '/refused' ? 404 : 200;
    response.end('ok');
  }).listen(Number(process.env.PORT), process.env.HOST);
`;

const missing = !wrkInstalled();
if (missing && process.env.CI === 'true') {
  test('wrk is installed', () => {
    throw new Error('wrk is missing: .ci/run installs Debian’s wrk package; its tests must run in CI');
  });
}

describe('a window of wrk', { skip: missing && 'wrk is missing (apt-get install wrk): skipped outside CI', timeout: 60_000 }, () => {
  test('sends varied paths in turn with the given headers, and every answer it counts has its latency', async (t) => {
    const server = await spawnAndWait(['-e', COUNTING_SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/seen');
    t.after(() => server.stop());
    const paths = Array.from({ length: 7 }, (_, i) => `/p${i}`);
    const result = await wrkLoad({ url: server.url, path: paths, headers: { authorization: 'Bearer k' }, seconds: 1, serverPid: server.child.pid! });
    const { seen, authorized } = (await (await fetch(`${server.url}/seen`)).json()) as { seen: Record<string, number>; authorized: number };
    assert.deepEqual(Object.keys(seen).sort(), paths);
    const sent = Object.values(seen);
    // Sent in turn: no path more than the in-flight requests (one a connection) ahead of another.
    assert.ok(Math.max(...sent) - Math.min(...sent) <= 50, `sent ${JSON.stringify(seen)}`);
    const total = sent.reduce((a, b) => a + b);
    assert.equal(authorized, total);
    assert.ok(result.requests > 100 && result.requests <= total, `${result.requests} answers of ${total} requests`);
    assert.equal(result.latencies.length, result.requests);
    assert.equal(result.refused, 0);
    assert.equal(result.errors, 0);
    assert.ok(result.seconds >= 1 && result.seconds < 2, `${result.seconds} s`);
    const summary = summarise(result);
    assert.ok(summary.p50 > 0 && summary.p50 <= summary.p99, `p50 ${summary.p50} ms, p99 ${summary.p99} ms`);
    assert.ok(result.generatorCpuMs > 0 && result.serverCpuMs! > 0);
  });

  test('counts answers of 400 or more as refused, sends a fixed path as it is, and measures for a time only', async (t) => {
    const server = await spawnAndWait(['-e', COUNTING_SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/seen');
    t.after(() => server.stop());
    const result = await wrkLoad({ url: server.url, path: '/refused', seconds: 1 });
    const { seen } = (await (await fetch(`${server.url}/seen`)).json()) as { seen: Record<string, number> };
    assert.deepEqual(Object.keys(seen), ['/refused']);
    assert.ok(result.requests > 100);
    assert.equal(result.refused, result.requests);
    assert.equal(result.serverCpuMs, undefined);
    await assert.rejects(wrkLoad({ url: server.url, path: '/', amount: 10 }), /for a time, not a number of requests/);
  });

  test('ends at once when its signal aborts, with the signal’s reason', async (t) => {
    const server = await spawnAndWait(['-e', COUNTING_SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/seen');
    t.after(() => server.stop());
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('the server died')), 200);
    await assert.rejects(wrkLoad({ url: server.url, path: '/', seconds: 10, signal: controller.signal }), /the server died/);
    assert.ok(performance.now() - started < 5_000);
  });
});
