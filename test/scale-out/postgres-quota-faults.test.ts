import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { createPgPool, type PgPool } from '../../src/storage/postgres/pg-pool.js';
import { PgQuotaStore } from '../../src/storage/postgres/pg-quota-store.js';
import { freshPgSchema, postgresUrl, requireBackend, withSearchPath } from '../helpers/backends.js';
import { stallingRelay } from '../helpers/stalling-relay.js';
import { FIXTURES, startProductionServer } from '../helpers/test-server.js';

/**
 * DECISIONS §12 with PostgreSQL as the quota store (no Redis): a request answered 503 is never
 * charged, even when PostgreSQL runs the statement the instance gave up waiting for.
 */
const skip = await requireBackend('PostgreSQL');

test('when PostgreSQL stalls and a request is answered 503, then the statement it ran on resuming counted nothing: the next request is the second counted', { skip }, async (t) => {
  const schema = await freshPgSchema(t);
  const stores = await openStores({ databaseUrl: schema.url });
  const key = generateApiKey();
  const record = await stores.keys.create('stall', hashApiKey(key), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  const target = new URL(postgresUrl());
  const relay = await stallingRelay(target.hostname, Number(target.port || 5432));
  const viaRelay = new URL(postgresUrl());
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(relay.port);
  const { server, url } = await startProductionServer({ DATABASE_URL: withSearchPath(viaRelay.toString(), schema.schema), QUOTA_LIMIT: '10', REFRESH_INTERVAL_MS: '5000' });
  schema.closeFirst(async () => {
    await server.close().catch(() => undefined);
    await stores.close();
    await relay.close();
  });
  const get = async () => {
    const response = await fetch(`${url}/api/v1/currencies`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining') };
  };

  assert.deepEqual(await get(), { status: 200, remaining: '9' });
  relay.stall();
  assert.deepEqual(await get(), { status: 503, remaining: null }, 'the instance gives up waiting');
  relay.resume();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal((await stores.quota.usage(record.id))?.used, 1, 'the statement PostgreSQL ran on resuming wrote nothing');
  assert.deepEqual(await get(), { status: 200, remaining: '8' });
});

test("when a key's first requests are decided by two statements and the second fails, then the first are answered as counted and only the others fail", { skip }, async (t) => {
  const schema = await freshPgSchema(t);
  const stores = await openStores({ databaseUrl: schema.url });
  const record = await stores.keys.create('first', 'a'.repeat(64), new Date());
  const pool = createPgPool(schema.url);
  schema.closeFirst(async () => {
    await stores.close();
    await pool.end();
  });
  // The statement after the one that creates the key's counter meets a dropped connection.
  let afterInsert = false;
  const flaky = {
    on: pool.on.bind(pool),
    query: (text: string, values?: unknown[]) => {
      if (afterInsert) return Promise.reject(new Error('Connection terminated unexpectedly'));
      afterInsert = text.includes('INSERT INTO quota_usage');
      return pool.query(text, values);
    },
  } as unknown as PgPool;
  const quota = new PgQuotaStore(flaky);
  const policy = { limit: 10, periodMs: 30 * 86_400_000 };
  const key = { id: record.id, hash: 'a'.repeat(64) };
  const now = Date.now();
  // Two requests of one turn, a millisecond apart: two runs, the second decided after the first.
  const [first, second] = await Promise.allSettled([quota.consume(key, now, policy), quota.consume(key, now + 1, policy)]);
  assert.deepEqual(first, { status: 'fulfilled', value: { allowed: true, used: 1, periodStart: now } });
  assert.equal(second.status, 'rejected');
  assert.equal((await stores.quota.usage(record.id))?.used, 1);
});
