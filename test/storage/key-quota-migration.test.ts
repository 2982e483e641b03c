import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openStores } from '../../src/storage/open-stores.js';
import { freshPgSchema, harnessClient, requireBackend } from '../helpers/backends.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** 003_key_quota on a database made by the previous version: its keys keep working, on QUOTA_LIMIT. */

const BEFORE = ['001_initial', '002_rate_days'];
const HASH = 'a'.repeat(64);
const CREATED = Date.UTC(2026, 5, 1);
const PERIOD_START = Date.UTC(2026, 10, 20);

/** The SQL that makes a database as the previous version left it: its migrations, one key, its counter. */
function previousVersion(dialect: 'sqlite' | 'postgres'): string[] {
  const migrations = BEFORE.map((name) => readFileSync(join(REPO_ROOT, 'migrations', dialect, `${name}.sql`), 'utf8'));
  return [
    ...migrations,
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    `INSERT INTO schema_migrations VALUES (1, '001_initial', 0), (2, '002_rate_days', 0)`,
    `INSERT INTO api_keys (name, key_hash, created_at) VALUES ('old', '${HASH}', ${CREATED})`,
    `INSERT INTO quota_usage (key_id, period_start, used) VALUES (1, ${PERIOD_START}, 42)`,
    "UPDATE data_versions SET version = 1 WHERE name = 'keys'",
  ];
}

async function assertUpgraded(databaseUrl: string): Promise<void> {
  const stores = await openStores(databaseUrl);
  try {
    assert.deepEqual(stores.appliedMigrations, ['003_key_quota', '004_source_rates', '005_one_source_model']);
    assert.deepEqual(await stores.keys.list(), [{ id: 1, name: 'old', createdAt: new Date(CREATED), revokedAt: null, quota: null }]);
    assert.deepEqual(await stores.keys.activeKeys(), new Map([[HASH, { id: 1, quota: null }]]));
    assert.deepEqual(await stores.quota.usage(1), { used: 42, periodStart: PERIOD_START }, 'the count is kept');
    assert.equal(await stores.keys.setQuota(1, 500), true);
    assert.equal((await stores.keys.list())[0]?.quota, 500);
    await assert.rejects(stores.keys.setQuota(1, 0), 'the schema refuses a quota below 1');
  } finally {
    await stores.close();
  }
}

test('when a SQLite database of the previous version is opened, then 003_key_quota applies and its key has no quota of its own', async (t) => {
  const path = join(tempDir(t), 'old.db');
  const db = new Database(path);
  for (const sql of previousVersion('sqlite')) db.exec(sql);
  db.close();
  await assertUpgraded(`sqlite:${path}`);
});

test('when a PostgreSQL schema of the previous version is opened, then 003_key_quota applies and its key has no quota of its own', async (t) => {
  if (!(await requireBackend('PostgreSQL', t))) return;
  const { url } = await freshPgSchema(t);
  const client = await harnessClient(url);
  try {
    // A fresh schema's identity column hands out id 1, as SQLite's first rowid is.
    for (const sql of previousVersion('postgres')) await client.query(sql);
  } finally {
    await client.end();
  }
  await assertUpgraded(url);
});
