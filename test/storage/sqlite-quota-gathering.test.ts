import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { QuotaPolicy } from '../../src/domain/quota.js';
import { openSqlite, sqliteConnection, statement } from '../../src/storage/sqlite/connection.js';
import { SqliteQuotaStore } from '../../src/storage/sqlite/sqlite-quota-store.js';
import { nextTurn, onePerTurn } from '../helpers/event-loop-turns.js';
import { sqliteFileWithKey } from '../helpers/sqlite-file.js';
import { quotaKeyOf } from './quota-keys.js';

/**
 * The SQLite quota store commits requests that keep arriving on consecutive turns of the event
 * loop together (TurnBatch's gathering), and still answers each only after that commit. What a
 * commit wrote is read from the write-ahead log: each commit appends the quota table's page to
 * it, so the log's frame count tells how many commits there were. The store's batch clock is
 * stopped: a turn slowed by a busy machine must not end a batch early and fail the test for it.
 */

const POLICY: QuotaPolicy = { limit: 1000, periodMs: 30 * 86_400_000 };
const NOW = Date.UTC(2026, 10, 23, 9);

async function fileStores(t: TestContext) {
  const { path, stores, keyId } = await sqliteFileWithKey(t, 'gather.db');
  const key = quotaKeyOf(await stores.keys.activeKeys(), keyId);
  const quotaDb = openSqlite(path, { lockWaitMs: 0 });
  t.after(() => quotaDb.close());
  const quota = new SqliteQuotaStore(quotaDb, undefined, { monotonicMs: () => 0 });
  const observer = sqliteConnection(path);
  t.after(() => observer.close());
  /** Frames in the write-ahead log now (PASSIVE); TRUNCATE checkpoints and empties the log. */
  const checkpoints = { PASSIVE: statement(observer, 'PRAGMA wal_checkpoint(PASSIVE)'), TRUNCATE: statement(observer, 'PRAGMA wal_checkpoint(TRUNCATE)') };
  const walFrames = (mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE') => (checkpoints[mode].get() as { log: number }).log;
  return { quota, key, walFrames };
}

test('when requests arrive on consecutive turns, then they are counted in one commit, each in order, and stored', async (t) => {
  const { quota, key, walFrames } = await fileStores(t);
  const consume = () => quota.consume(key, NOW, POLICY);

  walFrames('TRUNCATE');
  await consume();
  const oneCommit = walFrames();
  assert.ok(oneCommit > 0, 'a commit writes to the log');

  walFrames('TRUNCATE');
  const decisions = await onePerTurn(5, consume);
  assert.deepEqual(
    decisions.map((decision) => decision.used),
    [2, 3, 4, 5, 6],
  );
  assert.equal(walFrames(), oneCommit, 'five turns of requests, one commit');
  assert.deepEqual(await quota.usage(key), { used: 6, periodStart: NOW });
});

test('when a request waits for its batch to gather, then it is not answered before its commit', async (t) => {
  const { quota, key } = await fileStores(t);
  const answered: number[] = [];
  const first = quota.consume(key, NOW, POLICY).then((decision) => answered.push(decision.used));
  await nextTurn();
  assert.equal(answered.length, 0, 'still gathering: nothing committed, nothing answered');
  const second = quota.consume(key, NOW, POLICY).then((decision) => answered.push(decision.used));
  await Promise.all([first, second]);
  assert.deepEqual(answered, [1, 2]);
  assert.deepEqual(await quota.usage(key), { used: 2, periodStart: NOW });
});
