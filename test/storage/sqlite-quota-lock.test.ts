import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { QuotaDecision, QuotaPolicy } from '../../src/domain/quota.js';
import { StoreUnavailableError } from '../../src/storage/ports.js';
import { openSqlite, sqliteConnection } from '../../src/storage/sqlite/connection.js';
import { SqliteQuotaStore } from '../../src/storage/sqlite/sqlite-quota-store.js';
import { sqliteFileWithKey } from '../helpers/sqlite-file.js';
import { quotaKeyOf } from './quota-keys.js';

/**
 * Another process holding the database's write lock (its own quota commit, an ingestion): the
 * quota store waits for it without blocking the event loop, counts nothing twice and loses
 * nothing, and gives up (503) only after its wait limit. The "other process" is a second
 * connection in this process, which is why a blocking wait could never see the lock released.
 */

const POLICY: QuotaPolicy = { limit: 1000, periodMs: 30 * 86_400_000 };
const NOW = Date.UTC(2026, 10, 22, 9);

async function fileStores(t: TestContext) {
  const { path, stores, keyId } = await sqliteFileWithKey(t, 'lock.db');
  const key = quotaKeyOf(await stores.keys.activeKeys(), keyId);
  const other = sqliteConnection(path);
  t.after(() => other.close());
  return { path, stores, key, other };
}

/** The longest gap between timer ticks every 5 ms while `work` runs: how long the loop was blocked (a blocking wait: the whole 10 s). */
async function longestStall<T>(work: Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    return { result: await work, stallMs };
  } finally {
    clearInterval(ticker);
  }
}

test('when another connection holds the write lock, then requests wait without blocking the loop and are counted in order once it is released', async (t) => {
  const { stores, key, other } = await fileStores(t);
  assert.equal((await stores.quota.consume(key, NOW, POLICY)).used, 1);
  other.exec('BEGIN IMMEDIATE');
  let settled = 0;
  const waiting = Array.from({ length: 30 }, () => stores.quota.consume(key, NOW, POLICY).finally(() => settled++));
  const release = new Promise<void>((resolve) =>
    setTimeout(() => {
      assert.equal(settled, 0, 'nothing is answered while the lock is held');
      other.exec('COMMIT');
      resolve();
    }, 150),
  );
  const { result, stallMs } = await longestStall(Promise.all([Promise.all(waiting), release]));
  const [decisions] = result as [QuotaDecision[], void];
  assert.deepEqual(
    decisions.map((d) => d.used),
    Array.from({ length: 30 }, (_, i) => i + 2),
  );
  assert.ok(stallMs < 1000, `the event loop kept turning (longest stall ${stallMs.toFixed(1)} ms)`);
  assert.deepEqual(await stores.quota.usage(key), { used: 31, periodStart: NOW });
});

test('when the lock is held past the wait limit, then the waiting requests fail as unavailable and nothing is counted; later ones are counted', async (t) => {
  const { path, stores, key, other } = await fileStores(t);
  const quotaDb = openSqlite(path, { lockWaitMs: 0 });
  t.after(() => quotaDb.close());
  const quota = new SqliteQuotaStore(quotaDb, 200);
  assert.equal((await quota.consume(key, NOW, POLICY)).used, 1);

  other.exec('BEGIN IMMEDIATE');
  const started = performance.now();
  const outcomes = await Promise.allSettled([quota.consume(key, NOW, POLICY), quota.consume(key, NOW, POLICY)]);
  const waitedMs = performance.now() - started;
  for (const outcome of outcomes) {
    assert.equal(outcome.status, 'rejected');
    assert.ok((outcome as PromiseRejectedResult).reason instanceof StoreUnavailableError);
  }
  assert.ok(waitedMs >= 190 && waitedMs < 5000, `gave up after the limit (${waitedMs.toFixed(0)} ms)`);
  other.exec('ROLLBACK');

  assert.deepEqual(await quota.consume(key, NOW, POLICY), { allowed: true, used: 2, periodStart: NOW });
  assert.deepEqual(await stores.quota.usage(key), { used: 2, periodStart: NOW });
});
