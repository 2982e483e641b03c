import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type Database from 'better-sqlite3';
import { isKeptUntilExit, openSqlite } from '../../src/storage/sqlite/connection.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * What better-sqlite3's transaction() prepares for itself, once per connection, and keeps in its
 * own cache of that connection (kept as long as the connection is).
 */
const TRANSACTION_CONTROL = /^(BEGIN( DEFERRED| IMMEDIATE| EXCLUSIVE)?|COMMIT|ROLLBACK|SAVEPOINT .*|RELEASE .*|ROLLBACK TO .*)$/;

type NativePrepare = (sql: string, ...rest: unknown[]) => Database.Statement;

/** Every statement the spy saw, kept here too: under Node 24.19+ one collected would abort the tests. */
const seen: Database.Statement[] = [];

/**
 * Every statement better-sqlite3 makes while the test runs, whichever way it is asked for
 * (prepare, pragma, or its own transaction()): all of them are made by the native connection's
 * prepare, which is wrapped here and put back when the test ends.
 */
function statementsMade(t: TestContext): Database.Statement[] {
  const made: Database.Statement[] = [];
  const probe = openSqlite(':memory:');
  const native = Object.getOwnPropertySymbols(probe)
    .map((symbol) => (probe as unknown as Record<symbol, unknown>)[symbol])
    .find((value): value is { prepare: NativePrepare } => typeof (value as { prepare?: unknown })?.prepare === 'function');
  probe.close();
  assert.ok(native, 'found the native connection behind a better-sqlite3 Database');
  const prototype = Object.getPrototypeOf(native) as { prepare: NativePrepare };
  const original = prototype.prepare;
  prototype.prepare = function (this: unknown, ...args: Parameters<NativePrepare>) {
    const statement = original.apply(this, args);
    made.push(statement);
    seen.push(statement);
    return statement;
  };
  t.after(() => {
    prototype.prepare = original;
  });
  return made;
}

// From Node 24.19, better-sqlite3 12 aborts the process when the garbage collector frees one of
// its statements or connections outside JavaScript, as it does once a server goes quiet
// (connection.ts, `held`). Node 20 does not abort, and on Node 24 (.ci/node24) an abort comes only when such a
// collection happens to run: the test asserts the cause instead, on either, that no statement
// the stores make is left for the collector.
test('when every SQLite store operation runs, then every statement made is kept until the process exits', async (t) => {
  const made = statementsMade(t);
  const stores = openSqliteStores(join(tempDir(t), 'kept.db'));
  const policy = { limit: 10, periodMs: 86_400_000 };

  await stores.rates.merge('ecb', [
    { date: '2026-11-20', currency: 'USD', value: '1.0512' },
    { date: '2026-11-20', currency: 'JPY', value: '161.3' },
  ]);
  await stores.rates.merge('ecb', [{ date: '2026-11-20', currency: 'USD', value: '1.0513' }]);
  assert.equal(await stores.rates.version(), 2);
  assert.equal((await stores.rates.rowsSince(0)).rows.length, 2);
  assert.equal((await stores.rates.rowsSince(1)).rows.length, 1);
  assert.equal((await stores.rates.daysSince(0)).days.length, 1);
  assert.equal(await stores.rates.lastDay('ecb'), '2026-11-20');

  const key = await stores.keys.create('kept', 'a'.repeat(64), new Date());
  assert.equal(await stores.keys.findActive('a'.repeat(64)), key.id);
  assert.equal((await stores.keys.activeKeys()).get('a'.repeat(64))?.id, key.id);
  assert.equal((await stores.keys.list()).length, 1);
  assert.equal(await stores.keys.version(), 1);

  assert.equal((await Promise.all([1, 2, 3].map(() => stores.quota.consume({ id: key.id, hash: 'a'.repeat(64) }, Date.now(), policy)))).filter((d) => d.allowed).length, 3);
  assert.equal((await stores.quota.usage(key.id))?.used, 3);

  assert.equal(await stores.jobs.claim('slot', 'holder', Date.now(), 60_000), true);
  await stores.jobs.complete('slot', 'holder', Date.now());
  await stores.ping();
  assert.equal(await stores.keys.revoke(key.id, new Date()), true);
  assert.equal(await stores.keys.revoke(key.id, new Date()), false);
  await stores.close();

  // The spy saw the stores' statements: the test can fail.
  assert.ok(made.length >= 20, `${made.length} statements made`);
  const left = made.filter((statement) => !isKeptUntilExit(statement) && !TRANSACTION_CONTROL.test(statement.source));
  assert.deepEqual(
    left.map((statement) => statement.source),
    [],
  );
});

test('when a statement is prepared outside statement(), then the spy sees it left for the collector', async (t) => {
  const made = statementsMade(t);
  const db = openSqlite(':memory:');
  db.pragma('foreign_keys = ON');
  db.prepare('SELECT 1').get();
  db.close();
  assert.deepEqual(
    made.filter((statement) => !isKeptUntilExit(statement)).map((statement) => statement.source),
    ['PRAGMA foreign_keys = ON', 'SELECT 1'],
  );
});
