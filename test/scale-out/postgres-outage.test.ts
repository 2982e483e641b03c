import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { loggerOptions } from '../../src/logger.js';
import { startServer } from '../../src/server.js';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, freshRedisPrefix, postgresUrl, redisUrl, requireBackend, withSearchPath } from '../helpers/backends.js';
import { tappedRelay } from '../helpers/own-redis.js';
import { pollUntil } from '../helpers/server-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { FIXTURES } from '../helpers/test-server.js';

/**
 * DECISIONS §12, scaled out on PostgreSQL + Redis: a PostgreSQL outage must not take an instance that
 * still answers correctly out of its load balancer, and keys are refused from memory.
 */

const UNAVAILABLE =
  '{"statusCode":503,"message":"Service temporarily unavailable: a storage backend cannot be reached. Retry shortly.","error":"Service Unavailable"}';
const INVALID_KEY = '{"statusCode":401,"message":"Invalid API key","error":"Unauthorized"}';
const READY = '{"status":"ready"}';
const skip = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));

/** An instance whose PostgreSQL goes through a relay that records what it is sent, and whose Redis goes through one the test can cut. */
async function instance(t: TestContext, log: pino.Logger = pino({ level: 'silent' })) {
  const schema = await freshPgSchema(t);
  const pgTarget = new URL(postgresUrl());
  const pgRelay = await tappedRelay(t, pgTarget.hostname, Number(pgTarget.port || 5432));
  const redisTarget = new URL(redisUrl());
  const redisRelay = await startTcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
  const relayed = new URL(postgresUrl());
  relayed.hostname = '127.0.0.1';
  relayed.port = String(pgRelay.port);
  const redisKeyPrefix = freshRedisPrefix(t);

  const stores = await openStores(schema.url);
  schema.closeFirst(() => stores.close());
  const key = generateApiKey();
  const record = await stores.keys.create('outage', hashApiKey(key), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });

  const config = loadConfig({
    DATABASE_URL: withSearchPath(relayed.toString(), schema.schema),
    REDIS_URL: `redis://127.0.0.1:${redisRelay.port}`,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST_ON_EMPTY: 'off',
    INGEST_SCHEDULE: 'off',
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, log);
  schema.closeFirst(async () => {
    await server.close();
    await Promise.all([pgRelay.close(), redisRelay.close()]);
  });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const get = async (path: string, bearer: string | undefined = key) => {
    const response = await fetch(url + path, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  const keyListAge = async () => {
    const metrics = await get('/metrics', undefined);
    assert.equal(metrics.status, 200);
    const line = /^currency_rates_key_list_age_seconds (\S+)$/m.exec(metrics.text);
    assert.ok(line, 'the key list age is on /metrics');
    return Number(line[1]);
  };
  return { get, keyListAge, pgRelay, redisRelay, stores, key, keyId: record.id };
}

test('when PostgreSQL is unreachable and Redis holds the quota, then the instance answers from memory and /ready stays 200; when Redis goes too, then /ready is 503', { skip }, async (t) => {
  const { get, pgRelay, redisRelay } = await instance(t);
  assert.equal((await get('/ready')).text, READY);

  await pgRelay.cut();
  // Long enough for the refresher to have failed against the missing database several times.
  await sleep(2_500);
  const answer = await get('/api/v1/convert?from=USD&to=JPY&amount=100');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('x-ratelimit-remaining'), '999');
  const ready = await get('/ready');
  assert.deepEqual({ status: ready.status, text: ready.text }, { status: 200, text: READY });

  await redisRelay.cut();
  const notReady = await get('/ready');
  assert.deepEqual({ status: notReady.status, text: notReady.text }, { status: 503, text: UNAVAILABLE });
  assert.equal((await get('/api/v1/rates/latest')).text, UNAVAILABLE);

  await redisRelay.restore();
  await pgRelay.restore();
  await pollUntil(async () => ((await get('/ready')).status === 200 ? true : undefined), { timeoutMs: 10_000, intervalMs: 100, what: '/ready to be 200 again' });
});

test('when 300 unknown and malformed keys are presented, then each is refused with 401 and PostgreSQL receives no query for any of them', { skip }, async (t) => {
  const { get, pgRelay } = await instance(t);
  assert.equal((await get('/api/v1/currencies')).status, 200);
  pgRelay.clear();

  const unknown = Array.from({ length: 290 }, () => generateApiKey());
  const malformed = ['cr_', 'x', 'cr_!!!!', 'cr_' + 'a'.repeat(500), hashApiKey(generateApiKey()), 'Bearer', '0', 'cr_é', 'null', 'undefined'];
  const presented = [...unknown, ...malformed];
  const answers = await Promise.all(presented.map((bearer) => get('/api/v1/rates/latest', bearer)));
  assert.deepEqual(
    answers.map((answer) => `${answer.status} ${answer.text}`),
    presented.map(() => `401 ${INVALID_KEY}`),
  );

  const sent = pgRelay.sent().toString('latin1');
  const lookedUp = presented.filter((bearer) => sent.includes(hashApiKey(bearer)));
  assert.equal(lookedUp.length, 0, `${lookedUp.length} of the refused keys were looked up in PostgreSQL`);
  assert.equal(sent.includes('key_hash'), false, 'no key lookup reached PostgreSQL');
});

test('when PostgreSQL is unreachable, then known keys keep working and the key list age grows; a key revoked meanwhile is refused within 5 s of the database returning', { skip }, async (t) => {
  const { get, keyListAge, pgRelay, stores, key, keyId } = await instance(t);
  const other = generateApiKey();
  await stores.keys.create('other', hashApiKey(other), new Date());
  // A key created while the server runs works on it within 5 s (the refresher polls the key version).
  const created = await pollUntil(async () => ((await get('/api/v1/currencies', other)).status === 200 ? true : undefined), {
    timeoutMs: 5_000,
    intervalMs: 100,
    what: 'the new key to be accepted',
  });
  assert.ok(created.ms < 5_000);
  assert.ok((await keyListAge()) < 2, 'the key list is current');

  await pgRelay.cut();
  await sleep(3_000);
  assert.equal((await get('/api/v1/currencies')).status, 200, 'a key known before keeps working');
  assert.equal((await get('/api/v1/currencies', other)).status, 200);
  const age = await keyListAge();
  assert.ok(age >= 2.5 && age < 10, `the key list age is ${age} s after 3 s without PostgreSQL`);

  // Revoked by another instance (directly in the database) while this one cannot reach it.
  assert.equal(await stores.keys.revoke(keyId, new Date()), true);
  assert.equal((await get('/api/v1/currencies')).status, 200, 'not known here yet');
  await pgRelay.restore();
  const refused = await pollUntil(async () => {
    const answer = await get('/api/v1/currencies');
    return answer.status === 401 ? answer : undefined;
  }, { timeoutMs: 5_000, intervalMs: 100, what: 'the revoked key to be refused' });
  assert.equal(refused.value.text, INVALID_KEY);
  assert.equal((await get('/api/v1/currencies', other)).status, 200);
  assert.ok((await keyListAge()) < 2, 'the key list is current again');
  void key;
});

test('when PostgreSQL is unreachable for 3 s while 100 requests are served, then the log holds one warning with the real cause and one line at recovery', { skip }, async (t) => {
  const lines: { level: number; msg: string }[] = [];
  // The production logger's options (its `err` serializer among them), writing into `lines`.
  const log = pino(loggerOptions('info'), { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string })) });
  const { get, pgRelay } = await instance(t, log);
  assert.equal((await get('/api/v1/currencies')).status, 200);
  const before = lines.length;

  await pgRelay.cut();
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => get('/api/v1/currencies')));
    assert.deepEqual(answers.map((answer) => answer.status), Array(10).fill(200));
    await sleep(300);
  }
  await pgRelay.restore();
  await pollUntil(async () => (lines.slice(before).some((line) => /^PostgreSQL is reachable again/.test(line.msg)) ? true : undefined), {
    timeoutMs: 5_000,
    intervalMs: 100,
    what: 'the recovery line',
  });
  await sleep(1_500);

  const during = lines.slice(before);
  const warnings = during.filter((line) => line.level >= 40);
  assert.equal(warnings.length, 1, `one warning for the outage, got:\n${warnings.map((line) => JSON.stringify(line)).join('\n')}`);
  // The first failure's own message: a pooled connection cut, or the next connection refused.
  assert.ok(
    [`PostgreSQL is unreachable: connect ECONNREFUSED 127.0.0.1:${pgRelay.port}`, 'PostgreSQL is unreachable: Connection terminated unexpectedly'].includes(warnings[0]!.msg),
    warnings[0]!.msg,
  );
  assert.doesNotMatch(JSON.stringify(warnings[0]), /\[object Object\]/);
  const recovered = during.filter((line) => /^PostgreSQL is reachable again after \d+\.\d s$/.test(line.msg));
  assert.equal(recovered.length, 1, during.map((line) => JSON.stringify(line)).join('\n'));
});
