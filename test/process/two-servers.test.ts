import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer, withTimeout, type Answer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/**
 * DECISIONS §4 "exact quota across processes" and §6 "running servers see new data within 5 s",
 * with two real `serve` processes sharing one SQLite file.
 */

const QUOTA_BODY = '{"statusCode":429,"message":"Rate limit exceeded: 1000 requests per 30-day period"}';

async function newKey(env: NodeJS.ProcessEnv, name: string): Promise<string> {
  const created = await runCli(['keys', 'create', '--name', name], env);
  assert.equal(created.code, 0, describeRun(created));
  return created.stdout.trim().split('\n').pop() ?? '';
}

test('when 50 clients send 1001 requests with one key over two servers on one database, then exactly 1000 succeed with distinct remaining counts and one gets the 429 body; when ingest runs, then both servers see it within 5 s', async (t) => {
  const dir = tempDir(t, 'currency-rates-two-');
  const env = serviceEnv(join(dir, 'shared.db')); // QUOTA_LIMIT and REFRESH_INTERVAL_MS left at their defaults
  const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(ingested.code, 0, describeRun(ingested));
  const key = await newKey(env, 'shared-quota');
  const watcher = await newKey(env, 'watcher');
  const servers = await Promise.all([spawnServer(t, env), spawnServer(t, env)]);

  // 1001 requests, handed out from one counter to 50 clients; request i goes to server i % 2.
  const total = 1001;
  let next = 0;
  const answers: (Answer & { server: number })[] = [];
  const client = async () => {
    while (next < total) {
      const index = next++;
      const server = index % 2;
      const answer = await apiGet(servers[server]!.url, '/api/v1/rates/latest', key, 15_000);
      answers.push({ ...answer, server });
    }
  };
  const started = performance.now();
  await withTimeout(Promise.all(Array.from({ length: 50 }, client)), 30_000, '1001 requests');
  t.diagnostic(`1001 requests over 2 servers took ${Math.round(performance.now() - started)} ms`);

  const byStatus = new Map<number, number>();
  for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(byStatus), { 200: 1000, 429: 1 }, 'statuses');
  const refused = answers.filter((answer) => answer.status === 429);
  assert.equal(refused[0]?.text, QUOTA_BODY);
  assert.ok(refused[0]?.headers.get('retry-after'), '429 carries Retry-After');

  const ok = answers.filter((answer) => answer.status === 200);
  for (const server of [0, 1]) assert.ok(ok.some((answer) => answer.server === server), `server ${server} served some`);
  const remaining = ok.map((answer) => Number(answer.headers.get('x-ratelimit-remaining')));
  assert.equal(new Set(remaining).size, 1000, 'the 1000 X-RateLimit-Remaining values are distinct');
  assert.ok(remaining.every((value) => Number.isInteger(value) && value >= 0 && value <= 999), 'each in 0..999');
  assert.equal(new Set(ok.map((answer) => answer.headers.get('x-ratelimit-reset'))).size, 1, 'one period, one reset time');

  // Both servers refuse the key from now on: the count is shared, not per process.
  for (const server of servers) assert.equal((await apiGet(server.url, '/api/v1/currencies', key)).text, QUOTA_BODY);

  // An ingestion from the CLI while both run: daily.xml (2026-07-06) moves "latest" forward.
  for (const server of servers) {
    const before = await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', watcher);
    assert.equal((before.json as { date?: string } | undefined)?.date, '2026-04-13', before.text);
  }
  const ingestStarted = performance.now();
  const daily = await runCli(['ingest', '--file', fixture('daily.xml')], env);
  const committed = performance.now();
  assert.equal(daily.code, 0, describeRun(daily));
  assert.equal(parseIngestSummary(daily.stdout)?.added, 6, daily.stdout);
  const delays = await Promise.all(
    servers.map((server, i) =>
      pollUntil(
        async () => {
          const answer = await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', watcher);
          return (answer.json as { date?: string } | undefined)?.date === '2026-07-06' ? answer : undefined;
        },
        { timeoutMs: 5000, intervalMs: 25, what: `server ${i} to serve 2026-07-06` },
      ).then((seen) => ({ seen, sinceExit: performance.now() - committed, sinceStart: performance.now() - ingestStarted })),
    ),
  );
  delays.forEach(({ seen, sinceExit, sinceStart }, i) => {
    t.diagnostic(`server ${i}: new day visible ${Math.round(sinceExit)} ms after the ingest command exited (${Math.round(sinceStart)} ms after it started)`);
    assert.deepEqual(seen.value.json, { base: 'EUR', date: '2026-07-06', rates: { USD: '1.141500' } });
    assert.ok(sinceExit <= 5000, `server ${i} saw the data within 5 s (${Math.round(sinceExit)} ms)`);
  });
});
