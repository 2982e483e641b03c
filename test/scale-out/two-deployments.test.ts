import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { FIXTURES, read, startProductionServer } from '../helpers/test-server.js';

/**
 * Two deployments on one Redis under one prefix (staging beside production, or an operator who
 * reset the database): each database hands out key id 1 again, and a key's count must still be
 * its own.
 */

const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));

interface Deployment {
  keyId: number;
  /** One request of the deployment's first key: its status and X-RateLimit-Remaining. */
  request(): Promise<{ status: number; remaining: string | null }>;
}

/** A fresh PostgreSQL schema with one key, served by `instances` servers on the given Redis prefix. */
async function deployment(t: TestContext, prefix: string, instances: number): Promise<Deployment> {
  const schema = await freshPgSchema(t);
  const env = { DATABASE_URL: schema.url, REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: prefix, QUOTA_LIMIT: '5' };
  const stores = await openStores({ databaseUrl: schema.url, redisUrl: redisUrl(), redisKeyPrefix: prefix });
  const key = generateApiKey();
  let keyId: number;
  try {
    keyId = (await stores.keys.create('first', hashApiKey(key), new Date())).id;
    await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  } finally {
    await stores.close();
  }
  const urls: string[] = [];
  for (let i = 0; i < instances; i++) {
    const { server, url } = await startProductionServer(env);
    schema.closeFirst(() => server.close());
    urls.push(url);
  }
  let next = 0;
  return {
    keyId,
    request: async () => {
      const answer = await read(await fetch(`${urls[next++ % urls.length]}/api/v1/currencies`, { headers: { authorization: `Bearer ${key}` } }));
      return { status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining') };
    },
  };
}

test('when two deployments with fresh databases share one Redis and one prefix, then each key id 1 counts apart', { skip }, async (t) => {
  const prefix = freshRedisPrefix(t);

  // Deployment A, three instances: its first key uses its quota of 5, then 429.
  const a = await deployment(t, prefix, 3);
  for (let i = 1; i <= 5; i++) assert.deepEqual(await a.request(), { status: 200, remaining: String(5 - i) }, `A, request ${i}`);
  assert.equal((await a.request()).status, 429, 'A, request 6');

  // Deployment B, a fresh database on the same Redis and prefix: its first key has the same id.
  const b = await deployment(t, prefix, 1);
  assert.equal(b.keyId, a.keyId, 'both databases handed out the same id');
  assert.deepEqual(await b.request(), { status: 200, remaining: '4' }, "B's first request is not charged with A's count");
  for (let i = 2; i <= 5; i++) assert.deepEqual(await b.request(), { status: 200, remaining: String(5 - i) }, `B, request ${i}`);
  assert.equal((await b.request()).status, 429, 'B, request 6: its own count is used up');

  // A's count is its own too: B's requests did not give it anything back or take anything more.
  assert.deepEqual(await a.request(), { status: 429, remaining: '0' }, 'A is still at its limit');
});
