import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { openRedisQuota } from '../../src/storage/redis/open-redis-quota.js';
import { freshPgSchema, randomSuffix, requireBackend } from '../helpers/backends.js';
import { FIXTURES, startProductionServer } from '../helpers/test-server.js';
import { ownRedis } from '../helpers/own-redis.js';
import { pollUntil } from '../helpers/server-process.js';

/**
 * DECISIONS §12: a request answered 503 is never charged, even when the quota store executed a
 * command the instance gave up waiting for. A Redis of the test's own is stopped (SIGSTOP): it
 * keeps the connection and the commands sent to it, and runs them all when it resumes (SIGCONT),
 * long after the instance answered their requests 503.
 */
const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));
const LIMIT = 50;

/** A server on PostgreSQL (a fresh schema) and its own Redis, with two keys and a quota of LIMIT. */
async function stallableServer(t: TestContext) {
  const redis = await ownRedis(t);
  await redis.start();
  const schema = await freshPgSchema(t);
  const redisKeyPrefix = `cr_test_${randomSuffix()}:`;
  const storeConfig = { databaseUrl: schema.url, redisUrl: redis.url, redisKeyPrefix };
  const stores = await openStores(storeConfig);
  const warm = generateApiKey();
  const fresh = generateApiKey();
  await stores.keys.create('warm', hashApiKey(warm), new Date());
  const freshRecord = await stores.keys.create('fresh', hashApiKey(fresh), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  await stores.close();

  const { server, url } = await startProductionServer({
    DATABASE_URL: schema.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    QUOTA_LIMIT: String(LIMIT),
  });
  schema.closeFirst(() => server.close());
  const get = async (key: string) => {
    const response = await fetch(`${url}/api/v1/rates/latest`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining') };
  };
  /** What the quota store holds for the fresh key. */
  const usedByFresh = async () => {
    const quota = await openRedisQuota(redis.url, redisKeyPrefix);
    try {
      return (await quota.quota.usage({ id: freshRecord.id, hash: hashApiKey(fresh) }))?.used;
    } finally {
      await quota.close();
    }
  };
  return { redis, get, warm, fresh, usedByFresh };
}

/** After SIGCONT: the first answer that is not a 503 (the instance may take a moment to see Redis again). */
async function firstAnswer(get: () => Promise<{ status: number; remaining: string | null }>) {
  const answer = await pollUntil(async () => {
    const got = await get();
    return got.status === 503 ? undefined : got;
  }, { timeoutMs: 10_000, intervalMs: 100, what: 'an answer once Redis resumes' });
  return answer.value;
}

test('when Redis stalls (SIGSTOP) and requests of a fresh key are answered 503, then after SIGCONT none of them was charged: the next shows limit − 1 and the store holds 1', { skip }, async (t) => {
  const { redis, get, warm, fresh, usedByFresh } = await stallableServer(t);
  // The instance has talked to Redis before the stall (another key).
  assert.equal((await get(warm)).status, 200);

  redis.signal('SIGSTOP');
  const answers = await Promise.all([get(fresh), get(fresh), get(fresh)]);
  answers.push(await get(fresh), await get(fresh));
  assert.deepEqual(answers.map((answer) => answer.status), [503, 503, 503, 503, 503]);
  redis.signal('SIGCONT');

  const next = await firstAnswer(() => get(fresh));
  assert.equal(next.status, 200);
  assert.equal(next.remaining, String(LIMIT - 1), 'the five 503s were not charged');
  assert.equal(await usedByFresh(), 1);
});

test('when Redis stalls under load (200 concurrent requests, all 503), then after SIGCONT the count is exactly the requests answered 200', { skip }, async (t) => {
  const { redis, get, warm, fresh, usedByFresh } = await stallableServer(t);
  assert.equal((await get(warm)).status, 200);
  // Counted before the stall: 3.
  for (let i = 0; i < 3; i++) assert.equal((await get(fresh)).status, 200);

  redis.signal('SIGSTOP');
  const answers = await Promise.all(Array.from({ length: 200 }, () => get(fresh)));
  assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([503]));
  redis.signal('SIGCONT');

  const next = await firstAnswer(() => get(fresh));
  assert.equal(next.status, 200);
  assert.equal(next.remaining, String(LIMIT - 4));
  assert.equal(await usedByFresh(), 4);
  // And exactly the quota succeeds in the period: LIMIT - 4 more, then 429.
  const rest = await Promise.all(Array.from({ length: LIMIT }, () => get(fresh)));
  assert.equal(rest.filter((answer) => answer.status === 200).length, LIMIT - 4);
  assert.equal(rest.filter((answer) => answer.status === 429).length, 4);
});
