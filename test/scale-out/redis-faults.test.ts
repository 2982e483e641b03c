import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, requireBackend } from '../helpers/backends.js';
import { describeRun, runCli, serviceEnv } from '../helpers/cli.js';
import { ownRedis } from '../helpers/own-redis.js';
import { apiGet, freePort, pollUntil, spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { FIXTURES } from '../helpers/test-server.js';

/**
 * DECISIONS §12: Redis, the quota store, down at start, down for a while, or without persistence;
 * each instance a `serve` process on PostgreSQL and a redis-server of the test's own.
 */

const UNAVAILABLE =
  '{"statusCode":503,"message":"Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.","error":"Service Unavailable"}';
const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));

type LogLine = Record<string, unknown> & { level: number; msg: string };

function logLines(server: ServerProcess): LogLine[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** A database with rates and one key, and the environment of an instance on it and `redisUrl`. */
async function deployment(t: TestContext, redisUrl: string) {
  const schema = await freshPgSchema(t);
  const stores = await openStores(schema.url);
  const key = generateApiKey();
  try {
    await stores.keys.create('redis-faults', hashApiKey(key), new Date());
    await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  } finally {
    await stores.close();
  }
  const env = serviceEnv('unused', { DATABASE_URL: schema.url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: 'cr_test_faults:', LOG_LEVEL: 'info' });
  return { env, key };
}

const PERSISTENCE_WARNING = /^Redis keeps no persistence/;

test('when Redis is down as an instance starts, then it starts: /health 200, /ready 503, the API the 503 body; when Redis comes up, then it serves and is ready', { skip }, async (t) => {
  const redis = await ownRedis(t);
  const { env, key } = await deployment(t, redis.url);
  const server = await spawnServer(t, env);

  assert.equal((await apiGet(server.url, '/health')).status, 200);
  const ready = await apiGet(server.url, '/ready');
  assert.deepEqual({ status: ready.status, text: ready.text }, { status: 503, text: UNAVAILABLE });
  const answer = await apiGet(server.url, '/api/v1/rates/latest', key);
  assert.deepEqual({ status: answer.status, text: answer.text, retry: answer.headers.get('retry-after') }, { status: 503, text: UNAVAILABLE, retry: '1' });

  await redis.start();
  const served = await pollUntil(async () => {
    const got = await apiGet(server.url, '/api/v1/rates/latest', key);
    return got.status === 200 ? got : undefined;
  }, { timeoutMs: 10_000, intervalMs: 100, what: 'the instance to serve once Redis is up' });
  assert.equal(served.value.headers.get('x-ratelimit-remaining'), '999', 'the 503s were not counted');
  assert.equal((await apiGet(server.url, '/ready')).status, 200);
  assert.equal(server.child.exitCode, null, 'still running');
});

test('when PostgreSQL is unreachable as an instance starts, then it stops with exit code 1 and a message naming PostgreSQL', { skip }, async (t) => {
  const redis = await ownRedis(t);
  await redis.start();
  const port = await freePort();
  const run = await runCli(['serve'], serviceEnv('unused', {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`,
    REDIS_URL: redis.url,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
  }), { timeoutMs: 15_000 });
  assert.equal(run.code, 1, describeRun(run));
  assert.match(run.stderr, new RegExp(`^currency-rates serve: PostgreSQL is unavailable \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)\\n$`));
});

test('when Redis is down while 100 requests arrive, then the log holds one warning with the real cause and one line at recovery, not one per request', { skip }, async (t) => {
  const redis = await ownRedis(t);
  await redis.start();
  const { env, key } = await deployment(t, redis.url);
  const server = await spawnServer(t, env);
  assert.equal((await apiGet(server.url, '/api/v1/rates/latest', key)).status, 200);
  await sleep(500);
  const before = logLines(server).length;

  await redis.stop();
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => apiGet(server.url, '/api/v1/rates/latest', key)));
    assert.deepEqual(answers.map((a) => a.status), Array(10).fill(503));
    await sleep(200);
  }
  await redis.start();
  await pollUntil(async () => ((await apiGet(server.url, '/api/v1/rates/latest', key)).status === 200 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 100,
    what: 'the instance to recover',
  });
  // Written out every 250 ms.
  await sleep(800);
  assert.deepEqual(await server.stop(), { code: 0, signal: null });

  const during = logLines(server).slice(before);
  const warnings = during.filter((line) => line.level >= 40);
  assert.equal(warnings.length, 1, `one warning for the outage, got:\n${warnings.map((line) => JSON.stringify(line)).join('\n')}`);
  const outage = warnings[0]!;
  t.diagnostic(JSON.stringify(outage));
  assert.match(outage.msg, /^Redis is unreachable: \S/);
  assert.doesNotMatch(JSON.stringify(outage), /\[object Object\]/);
  const cause = outage.msg.slice('Redis is unreachable: '.length);
  assert.ok(
    [`connection to 127.0.0.1:${redis.port} closed`, `connect ECONNREFUSED 127.0.0.1:${redis.port}`].includes(cause),
    `the connection's own failure, got: ${cause}`,
  );
  const recovered = during.filter((line) => /^Redis is reachable again/.test(line.msg));
  assert.equal(recovered.length, 1, `one recovery line, got:\n${during.map((line) => JSON.stringify(line)).join('\n')}`);
  assert.equal(recovered[0]!.level, 30);
});

test('when Redis keeps no persistence (no AOF, no RDB snapshots), then the start-up log warns that a restart forgets every count', { skip }, async (t) => {
  const redis = await ownRedis(t, ['--save', '', '--appendonly', 'no']);
  await redis.start();
  const { env } = await deployment(t, redis.url);
  const server = await spawnServer(t, env);
  await sleep(600);
  const warnings = logLines(server).filter((line) => PERSISTENCE_WARNING.test(line.msg));
  assert.equal(warnings.length, 1, server.stdout());
  assert.equal(warnings[0]!.level, 40);
  assert.equal(
    warnings[0]!.msg,
    `Redis keeps no persistence (appendonly no, save ""): a Redis restart forgets every quota count; turn on appendonly or save snapshots`,
  );
});

test('when Redis persists (appendonly yes), then the start-up log has no persistence warning', { skip }, async (t) => {
  const redis = await ownRedis(t, ['--save', '', '--appendonly', 'yes']);
  await redis.start();
  const { env } = await deployment(t, redis.url);
  const server = await spawnServer(t, env);
  await sleep(600);
  assert.ok(/"msg":"serving /.test(server.stdout()), server.stdout());
  assert.equal(logLines(server).filter((line) => /persist/.test(line.msg)).length, 0, server.stdout());
});
