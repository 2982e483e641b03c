import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshPgSchema, freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer, withTimeout, type Answer } from '../helpers/server-process.js';

/**
 * DECISIONS §10 scaled out: three `serve` processes on one PostgreSQL (keys and their quotas) and
 * one Redis (counters). Each key's own quota is exact across them, keys list reads the counts
 * from Redis, and a changed quota reaches all three within 5 s.
 */

const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));
const refusal = (quota: number) => `{"statusCode":429,"message":"Rate limit exceeded: ${quota} requests per 30-day period"}`;

test('when 50 clients send 400 requests with each of two keys (quotas 7 and 300, QUOTA_LIMIT 1000) over three instances on PostgreSQL + Redis, then exactly 7 and 300 are 200; when the 7 is raised to 10, then all three apply it within 5 s and exactly 3 more succeed', { skip }, async (t) => {
  const schema = await freshPgSchema(t);
  const env = serviceEnv('unused', { DATABASE_URL: schema.url, REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: freshRedisPrefix(t), QUOTA_LIMIT: '1000' });
  const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(ingested.code, 0, describeRun(ingested));
  const keyOf = async (name: string, quota: string) => {
    const created = await runCli(['keys', 'create', '--name', name, '--quota', quota], env);
    assert.equal(created.code, 0, describeRun(created));
    return created.stdout.trim().split('\n').pop() ?? '';
  };
  const small = await keyOf('small', '7');
  const large = await keyOf('large', '300');
  const servers = await Promise.all([spawnServer(t, env), spawnServer(t, env), spawnServer(t, env)]);

  const perKey = 400;
  let next = 0;
  const answers: (Answer & { server: number; key: string })[] = [];
  const client = async () => {
    while (next < 2 * perKey) {
      const i = next++;
      const key = i % 2 === 0 ? small : large;
      const server = Math.floor(i / 2) % 3;
      answers.push({ ...(await apiGet(servers[server]!.url, '/api/v1/convert?from=USD&to=JPY&amount=100', key, 15_000)), server, key });
    }
  };
  const started = performance.now();
  await withTimeout(Promise.all(Array.from({ length: 50 }, client)), 60_000, `${2 * perKey} requests`);
  t.diagnostic(`${2 * perKey} requests over 3 instances took ${Math.round(performance.now() - started)} ms`);

  for (const [key, quota] of [[small, 7], [large, 300]] as const) {
    const mine = answers.filter((answer) => answer.key === key);
    const ok = mine.filter((answer) => answer.status === 200);
    t.diagnostic(`quota ${quota}: ${ok.length} × 200, ${mine.length - ok.length} × 429`);
    assert.equal(ok.length, quota, `exactly ${quota} succeed`);
    for (const answer of mine.filter((a) => a.status !== 200)) assert.equal(answer.text, refusal(quota));
    assert.deepEqual(
      ok.map((answer) => Number(answer.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
      Array.from({ length: quota }, (_, i) => i),
      'X-RateLimit-Remaining 0..quota−1, each once',
    );
    for (const answer of mine) assert.equal(answer.headers.get('x-ratelimit-limit'), String(quota));
  }
  for (const server of [0, 1, 2]) assert.ok(answers.some((a) => a.key === large && a.status === 200 && a.server === server), `instance ${server} served some`);

  const listed = await runCli(['keys', 'list', '--json'], env);
  assert.equal(listed.code, 0, describeRun(listed));
  const usage = (JSON.parse(listed.stdout) as { name: string; quota: number; used: number; remaining: number }[]).map(({ name, quota, used, remaining }) => ({ name, quota, used, remaining }));
  assert.deepEqual(usage, [
    { name: 'small', quota: 7, used: 7, remaining: 0 },
    { name: 'large', quota: 300, used: 300, remaining: 0 },
  ], 'keys list reads the counts from Redis');

  const updated = await runCli(['keys', 'update', '1', '--quota', '10'], env);
  assert.equal(updated.code, 0, describeRun(updated));
  const changedAt = performance.now();
  // Probe with /usage on each instance until it answers under the new limit: the first such answer is counted (8, 9, 10).
  const firsts = await Promise.all(
    servers.map((server, i) =>
      pollUntil(
        async () => {
          const answer = await apiGet(server.url, '/api/v1/usage', small);
          return answer.headers.get('x-ratelimit-limit') === '10' ? answer : undefined;
        },
        { timeoutMs: 5_000, intervalMs: 25, what: `instance ${i} to apply the quota 10` },
      ).then(({ value }) => {
        t.diagnostic(`instance ${i}: quota 10 applied ${Math.round(performance.now() - changedAt)} ms after keys update exited`);
        return value;
      }),
    ),
  );
  assert.deepEqual(firsts.map((answer) => answer.status).sort(), [200, 200, 200]);
  assert.deepEqual(firsts.map((answer) => (answer.json as { used: number }).used).sort((a, b) => a - b), [8, 9, 10], 'the same period: 3 more, counted once each');
  const after = await apiGet(servers[0]!.url, '/api/v1/usage', small);
  assert.equal(after.text, refusal(10));
});
