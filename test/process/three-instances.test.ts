import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshPgSchema, freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer, withTimeout, type Answer } from '../helpers/server-process.js';

/**
 * The scale-out setup: three `serve` processes on one PostgreSQL (rates, keys) and one Redis
 * (quota counters). The quota is exact across them, and a CLI ingestion reaches all three.
 */

const QUOTA_BODY = '{"statusCode":429,"message":"Rate limit exceeded: 300 requests per 30-day period"}';
const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));

test('when 50 clients send 400 requests with one key (quota 300) over three instances on PostgreSQL + Redis, then exactly 300 are 200 and the rest the 429 body; when ingest runs, then all three serve it within 5 s', { skip }, async (t) => {
  const schema = await freshPgSchema(t);
  const env = serviceEnv('unused', {
    DATABASE_URL: schema.url,
    REDIS_URL: redisUrl(),
    REDIS_KEY_PREFIX: freshRedisPrefix(t),
    QUOTA_LIMIT: '300',
  });
  const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(ingested.code, 0, describeRun(ingested));
  const keyOf = async (name: string) => {
    const created = await runCli(['keys', 'create', '--name', name], env);
    assert.equal(created.code, 0, describeRun(created));
    return created.stdout.trim().split('\n').pop() ?? '';
  };
  const key = await keyOf('shared');
  const watcher = await keyOf('watcher');
  const servers = await Promise.all([spawnServer(t, env), spawnServer(t, env), spawnServer(t, env)]);

  const total = 400;
  let next = 0;
  const answers: (Answer & { server: number })[] = [];
  const client = async () => {
    while (next < total) {
      const server = next++ % 3;
      answers.push({ ...(await apiGet(servers[server]!.url, '/api/v1/convert?from=USD&to=JPY&amount=100', key, 15_000)), server });
    }
  };
  const started = performance.now();
  await withTimeout(Promise.all(Array.from({ length: 50 }, client)), 60_000, '400 requests');
  t.diagnostic(`400 requests over 3 instances took ${Math.round(performance.now() - started)} ms`);

  const ok = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 429);
  assert.equal(ok.length, 300, 'exactly the quota succeeds');
  assert.equal(refused.length, 100, 'every other request is refused');
  for (const answer of refused) assert.equal(answer.text, QUOTA_BODY);
  for (const server of [0, 1, 2]) assert.ok(ok.some((answer) => answer.server === server), `instance ${server} served some`);
  const remaining = new Set(ok.map((answer) => answer.headers.get('x-ratelimit-remaining')));
  assert.equal(remaining.size, 300, 'the 300 X-RateLimit-Remaining values are distinct');
  for (const answer of ok) {
    assert.equal(answer.text, '{"from":"USD","to":"JPY","amount":"100","result":"15983.396097","rate":"159.833961","date":"2026-04-13"}');
  }

  const committedAt = await (async () => {
    const daily = await runCli(['ingest', '--file', fixture('daily.xml')], env);
    assert.equal(daily.code, 0, describeRun(daily));
    assert.equal(parseIngestSummary(daily.stdout)?.added, 6, daily.stdout);
    return performance.now();
  })();
  await Promise.all(
    servers.map((server, i) =>
      pollUntil(
        async () => {
          const answer = await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', watcher);
          return (answer.json as { date?: string } | undefined)?.date === '2026-07-06' ? answer : undefined;
        },
        { timeoutMs: 5000, intervalMs: 25, what: `instance ${i} to serve 2026-07-06` },
      ).then(() => t.diagnostic(`instance ${i}: new day served ${Math.round(performance.now() - committedAt)} ms after the ingest command exited`)),
    ),
  );
});
