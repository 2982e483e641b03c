import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { startServer } from '../../src/server.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, freshRedisPrefix, postgresUrl, redisUrl, requireBackend, withSearchPath } from '../helpers/backends.js';
import { pollUntil } from '../helpers/server-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { FIXTURES } from '../helpers/test-server.js';

const UNAVAILABLE =
  '{"statusCode":503,"message":"Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.","error":"Service Unavailable"}';
const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));

/** A server whose PostgreSQL and Redis connections both go through relays the test can cut. */
async function proxiedServer(t: import('node:test').TestContext, withRedis: boolean) {
  const schema = await freshPgSchema(t);
  const pgTarget = new URL(postgresUrl());
  const redisTarget = new URL(redisUrl());
  const pgProxy = await startTcpProxy(pgTarget.hostname, Number(pgTarget.port || 5432));
  const redisProxy = await startTcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
  const pgUrl = new URL(postgresUrl());
  pgUrl.hostname = '127.0.0.1';
  pgUrl.port = String(pgProxy.port);
  const databaseUrl = withSearchPath(pgUrl.toString(), schema.schema);
  const redisKeyPrefix = freshRedisPrefix(t);
  const storeConfig = { databaseUrl: schema.url, ...(withRedis ? { redisUrl: redisUrl(), redisKeyPrefix } : {}) };

  const stores = await openStores(storeConfig);
  const key = generateApiKey();
  await stores.keys.create('failure', hashApiKey(key), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  await stores.close();

  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ...(withRedis ? { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST_ON_EMPTY: 'off',
    INGEST_SCHEDULE: 'off',
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  schema.closeFirst(async () => {
    await server.close();
    await Promise.all([pgProxy.close(), redisProxy.close()]);
  });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const get = async (path: string, bearer = key) => {
    const response = await fetch(url + path, { headers: { authorization: `Bearer ${bearer}` } });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  return { get, pgProxy, redisProxy };
}

test('when Redis goes away, then requests get the 503 body uncounted, /ready is 503, /health 200; when it returns, then the instance recovers and the count continues', { skip }, async (t) => {
  const { get, redisProxy } = await proxiedServer(t, true);
  const first = await get('/api/v1/rates/latest');
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-ratelimit-remaining'), '999');

  await redisProxy.cut();
  for (let i = 0; i < 3; i++) {
    const answer = await get('/api/v1/convert?from=USD&to=JPY&amount=1');
    assert.equal(answer.status, 503);
    assert.equal(answer.text, UNAVAILABLE);
    assert.equal(answer.headers.get('retry-after'), '1');
  }
  assert.equal((await get('/ready')).text, UNAVAILABLE);
  assert.equal((await get('/health')).status, 200);

  await redisProxy.restore();
  const back = await pollUntil(async () => {
    const answer = await get('/api/v1/rates/latest');
    return answer.status === 200 ? answer : undefined;
  }, { timeoutMs: 10_000, intervalMs: 100, what: 'the instance to recover' });
  // The 503s were not counted: this is the second counted request.
  assert.equal(back.value.headers.get('x-ratelimit-remaining'), '998');
  assert.equal((await get('/ready')).status, 200);
});

test('when PostgreSQL goes away (quota in PostgreSQL), then requests get the 503 body; when it returns, then the instance recovers by itself', { skip }, async (t) => {
  const { get, pgProxy } = await proxiedServer(t, false);
  assert.equal((await get('/api/v1/rates/latest')).status, 200);

  await pgProxy.cut();
  const down = await get('/api/v1/rates/latest');
  assert.equal(down.status, 503);
  assert.equal(down.text, UNAVAILABLE);
  // A key the instance does not hold is refused from memory, without the database (DECISIONS §12).
  assert.equal((await get('/api/v1/rates/latest', 'cr_never-seen-key')).text, '{"statusCode":401,"message":"Invalid API key","error":"Unauthorized"}');
  assert.equal((await get('/ready')).status, 503);

  await pgProxy.restore();
  const back = await pollUntil(async () => {
    const answer = await get('/api/v1/rates/latest');
    return answer.status === 200 ? answer : undefined;
  }, { timeoutMs: 15_000, intervalMs: 100, what: 'the instance to recover' });
  assert.equal(back.value.headers.get('x-ratelimit-remaining'), '998');
});

test('when PostgreSQL goes away but Redis holds the quota, then known keys are still served from memory and counted in Redis, and the instance stays ready', { skip }, async (t) => {
  const { get, pgProxy } = await proxiedServer(t, true);
  assert.equal((await get('/api/v1/rates/latest')).status, 200);
  await pgProxy.cut();
  const answer = await get('/api/v1/convert?from=USD&to=JPY&amount=100');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('x-ratelimit-remaining'), '998');
  // DECISIONS §12: it answers correctly, so it stays in the load balancer.
  assert.equal((await get('/ready')).status, 200);
  await pgProxy.restore();
});
