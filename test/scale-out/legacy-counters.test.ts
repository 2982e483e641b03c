import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { FIXTURES, ManualClock, read, startProductionServer } from '../helpers/test-server.js';

/**
 * The upgrade from Redis counters named by key id (`quota:{1}`, earlier versions) to counters
 * named by key hash: the server's start-up moves a key's counter, so its count survives, and a
 * second start (or a second instance) changes nothing more.
 */

const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 9);

test('when a key has a counter under its id from an earlier version, then start-up carries its count over to the key hash, once', { skip }, async (t) => {
  const schema = await freshPgSchema(t);
  const prefix = freshRedisPrefix(t);
  const storeConfig = { databaseUrl: schema.url };
  const env = { DATABASE_URL: schema.url, REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: prefix, QUOTA_LIMIT: '5' };
  const key = generateApiKey();
  const stores = await openStores(storeConfig);
  let keyId: number;
  try {
    keyId = (await stores.keys.create('upgraded', hashApiKey(key), new Date(T0))).id;
    await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  } finally {
    await stores.close();
  }

  const redis = new Redis(redisUrl(), { lazyConnect: true });
  await redis.connect();
  t.after(() => redis.quit());
  const legacy = `${prefix}quota:{${keyId}}`;
  const current = `${prefix}quota:{${hashApiKey(key)}}`;
  // What an earlier version left: 3 requests of a period that began at T0.
  const used = 3;
  await redis.hset(legacy, 'start', String(T0), 'used', String(used));
  await redis.pexpire(legacy, 31 * DAY);

  const clock = new ManualClock(T0 + DAY);
  const request = async (url: string) => {
    const answer = await read(await fetch(`${url}/api/v1/currencies`, { headers: { authorization: `Bearer ${key}` } }));
    return { status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining') };
  };

  const first = await startProductionServer(env, clock);
  schema.closeFirst(() => first.server.close());
  assert.equal(await redis.exists(legacy), 0, 'the legacy name is gone after start-up');
  assert.deepEqual(await redis.hgetall(current), { start: String(T0), used: String(used) }, 'the count is under the key hash');
  assert.deepEqual(await request(first.url), { status: 200, remaining: String(5 - used - 1) }, 'the next request continues from the carried count');

  // The step again: a second instance starting (or a restart). Nothing more changes.
  const before = { keys: (await redis.keys(`${prefix}*`)).sort(), counter: await redis.hgetall(current), ttl: await redis.pttl(current) };
  const second = await startProductionServer(env, clock);
  schema.closeFirst(() => second.server.close());
  const after = { keys: (await redis.keys(`${prefix}*`)).sort(), counter: await redis.hgetall(current), ttl: await redis.pttl(current) };
  assert.deepEqual(after.keys, before.keys);
  assert.deepEqual(after.counter, { start: String(T0), used: String(used + 1) });
  assert.ok(after.ttl <= before.ttl && after.ttl > before.ttl - 60_000, `the expiry is left alone: ${before.ttl} → ${after.ttl}`);
  assert.deepEqual(await request(second.url), { status: 200, remaining: '0' });
  assert.equal((await request(first.url)).status, 429, 'both instances count the one counter');
});
