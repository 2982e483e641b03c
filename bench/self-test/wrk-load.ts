import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { summarise } from '../load.js';
import { spawnAndWait } from '../processes.js';
import { wrkInstalled, wrkLoad } from '../wrk-load.js';

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

// Without wrk the benchmark sends its windows with autocannon, so there is no wrk to check.
describe('a window of wrk', { skip: !wrkInstalled() && 'wrk is missing (apt-get install wrk)', timeout: 60_000 }, () => {
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
