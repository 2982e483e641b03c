import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type pg from 'pg';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import type { SourceValueRow } from '../../src/domain/source-values.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { nbp } from '../../src/ingest/sources/nbp.js';
import type { SourceAdapter } from '../../src/ingest/sources/source-adapter.js';
import { openStores } from '../../src/storage/open-stores.js';
import { sqliteConnection, statement } from '../../src/storage/sqlite/connection.js';
import { freshPgSchema, harnessClient, requireBackend } from '../helpers/backends.js';
import { describeRun, REPO_ROOT, runCli, serviceEnv } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ECB_FIXTURES, FIXTURES, startProductionServer } from '../helpers/test-server.js';

/**
 * 005_one_source_model on a database the previous release wrote: the ECB's rows in `rates` and
 * `rate_days`, the banks' in `source_rates`, two change counters, keys with their counts. After
 * the migration every value and count is kept, and every answer is the one a database loaded by
 * this release from the same files gives (whose answers the rest of the suite holds to what they
 * always were). A migration that fails leaves the old database as it was.
 */

const PREVIOUS = ['001_initial', '002_rate_days', '003_key_quota', '004_source_rates'];
const KEY = generateApiKey();
// A period under way (the servers count on the real clock), started a day ago to the second.
const PERIOD_START = Math.floor(Date.now() / 1000) * 1000 - 86_400_000;
const USED = 42;

/** The documents both databases hold: each merge of the previous release, in order. */
const MERGES: { adapter: SourceAdapter; file: string }[] = [
  { adapter: ecb, file: join(ECB_FIXTURES, 'eurofxref-hist-90d.xml') },
  { adapter: ecb, file: join(FIXTURES, 'hist.csv') },
  { adapter: nbp, file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) },
  { adapter: nbp, file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpB) },
];

/** Each merge's values as the previous release stored them, with the version its counter gave the merge. */
async function previousRows(): Promise<{ table: 'rates' | 'source_rates'; rows: (SourceValueRow & { version: number })[] }[]> {
  const versions = new Map<string, number>();
  const merges = [];
  for (const { adapter, file } of MERGES) {
    const version = (versions.get(adapter.id) ?? 0) + 1;
    versions.set(adapter.id, version);
    const days = await adapter.parse(readFileSync(file), file);
    const rows = days.flatMap(({ date, values }) => [...values].map(([currency, value]) => ({ source: adapter.id, date, currency, value, version })));
    merges.push({ table: adapter === ecb ? ('rates' as const) : ('source_rates' as const), rows });
  }
  return merges;
}

/**
 * The statements that make a database as the previous release left it. `ecbRows` go in before
 * 002 ran, so its own statement builds `rate_days` from them, as every merge of that release did.
 */
async function previousRelease(dialect: 'sqlite' | 'postgres'): Promise<{ sql: string; params?: unknown[] }[]> {
  const migration = (name: string) => ({ sql: readFileSync(join(REPO_ROOT, 'migrations', dialect, `${name}.sql`), 'utf8') });
  const p = (i: number) => (dialect === 'sqlite' ? '?' : `$${i}`);
  const statements: { sql: string; params?: unknown[] }[] = [migration(PREVIOUS[0]!)];
  const merges = await previousRows();
  for (const { rows } of merges.filter((merge) => merge.table === 'rates')) {
    for (const row of rows) statements.push({ sql: `INSERT INTO rates (day, currency, rate, version) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, params: [row.date, row.currency, row.value, row.version] });
  }
  statements.push(migration(PREVIOUS[1]!), migration(PREVIOUS[2]!), migration(PREVIOUS[3]!));
  for (const { rows } of merges.filter((merge) => merge.table === 'source_rates')) {
    for (const row of rows) {
      statements.push({
        sql: `INSERT INTO source_rates (source, day, currency, value, version) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`,
        params: [row.source, row.date, row.currency, row.value, row.version],
      });
    }
  }
  statements.push(
    { sql: 'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)' },
    { sql: `INSERT INTO schema_migrations VALUES ${PREVIOUS.map((name, i) => `(${i + 1}, '${name}', 0)`).join(', ')}` },
    { sql: "UPDATE data_versions SET version = 2 WHERE name IN ('rates', 'source_rates')" },
    { sql: `INSERT INTO api_keys (name, key_hash, created_at, quota) VALUES ('old', '${hashApiKey(KEY)}', ${PERIOD_START - 86_400_000}, 500)` },
    { sql: `INSERT INTO quota_usage (key_id, period_start, used) VALUES (1, ${PERIOD_START}, ${USED})` },
    { sql: "UPDATE data_versions SET version = 1 WHERE name = 'keys'" },
    { sql: `INSERT INTO job_claims (slot, holder, lease_until, completed_at) VALUES ('ingest:2026-03-05', 'old-instance', 0, 1)` },
  );
  return statements;
}

function sqliteAsPreviousRelease(path: string, statements: { sql: string; params?: unknown[] }[]): void {
  const db = sqliteConnection(path);
  try {
    db.transaction(() => {
      for (const { sql, params } of statements) {
        // Kept until exit like every statement here: one left to the collector aborts Node 24.
        if (params) statement(db, sql).run(...params);
        else db.exec(sql);
      }
    })();
  } finally {
    db.close();
  }
}

async function pgAsPreviousRelease(url: string, statements: { sql: string; params?: unknown[] }[]): Promise<void> {
  await pgQueries(url, async (client) => {
    await client.query('BEGIN');
    for (const { sql, params } of statements) await client.query(sql, params);
    await client.query('COMMIT');
  });
}

async function pgQueries<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await harnessClient(url);
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The same documents, loaded by this release into a store of its own. */
async function loadedByThisRelease(databaseUrl: string): Promise<void> {
  const stores = await openStores(databaseUrl);
  try {
    for (const { adapter, file } of MERGES) await runIngestion(stores.rates, adapter, { file });
    await stores.keys.create('new', hashApiKey(KEY), new Date(PERIOD_START - 86_400_000), 500);
  } finally {
    await stores.close();
  }
}

/** Answers the rest of the suite pins for the ECB alone, and for the ECB and NBP together. */
const PATHS = [
  '/api/v1/rates/latest', '/api/v1/rates/latest?base=USD&symbols=GBP,JPY', '/api/v1/rates/2025-02-25', '/api/v1/rates/2026-03-04?base=PLN',
  '/api/v1/rates/2024-11-28..2025-02-25?symbols=USD,GBP', '/api/v1/rates/2026-03-01..?base=USD', '/api/v1/fluctuation/2024-12-02..2026-04-13',
  '/api/v1/convert?from=USD&to=PLN&amount=100', '/api/v1/convert/bulk?from=EUR&amount=1.5&to=USD,JPY,PLN,AFN&date=2026-03-04',
  '/api/v1/currencies', '/api/v1/sources',
];

interface Answer {
  status: number;
  body: string;
  etag: string | null;
  type: string | null;
}

/** Every PATHS answer (JSON, and the range as CSV) of a server on `databaseUrl` with `sources` enabled. */
async function answers(env: Record<string, string>, sources: string): Promise<{ answers: Answer[]; remaining: (string | null)[] }> {
  const { server, url } = await startProductionServer({ ...env, SOURCES: sources });
  try {
    const ask = async (path: string, accept = 'application/json') => {
      const response = await fetch(url + path, { headers: { authorization: `Bearer ${KEY}`, accept } });
      const answer = { status: response.status, body: await response.text(), etag: response.headers.get('etag'), type: response.headers.get('content-type') };
      return { answer, remaining: response.headers.get('x-ratelimit-remaining') };
    };
    const asked = [];
    for (const path of PATHS) asked.push(await ask(path));
    asked.push(await ask(PATHS[4]!, 'text/csv'));
    return { answers: asked.map(({ answer }) => answer), remaining: asked.map(({ remaining }) => remaining) };
  } finally {
    await server.close();
  }
}

/**
 * The migrated store holds every value, key and count, and answers as a store this release loaded
 * from the same files: byte for byte, ETags included, with the ECB alone and with NBP beside it.
 */
async function assertAnswersKept(t: TestContext, migratedEnv: Record<string, string>, freshEnv: Record<string, string>): Promise<void> {
  const migrated = await openStores(migratedEnv.DATABASE_URL!);
  const fresh = await openStores(freshEnv.DATABASE_URL!);
  try {
    assert.deepEqual((await migrated.rates.rowsSince(0)).rows, (await fresh.rates.rowsSince(0)).rows, 'every value, as written');
    const expected = (await previousRows()).reduce((sum, { rows }) => sum + rows.length, 0);
    assert.equal((await migrated.rates.rowsSince(0)).rows.length, expected);
    assert.ok((await migrated.rates.version()) >= 2, 'no stored row is newer than the counter');
    assert.deepEqual(await migrated.quota.usage(1), { used: USED, periodStart: PERIOD_START }, 'the count is kept');
    assert.deepEqual((await migrated.keys.list()).map(({ name, quota, revokedAt }) => ({ name, quota, revokedAt })), [{ name: 'old', quota: 500, revokedAt: null }]);
    const decoded = (days: { source: string; date: string; rates: string }[]) =>
      days.map(({ source, date, rates }) => `${source} ${date} ${rates.split(';').sort().join(';')}`).sort();
    assert.deepEqual(decoded((await migrated.rates.daysSince(0)).days), decoded((await fresh.rates.daysSince(0)).days), 'every day, whole');
  } finally {
    await Promise.all([migrated.close(), fresh.close()]);
  }
  for (const sources of ['ecb', 'ecb,nbp', 'nbp,ecb']) {
    const before = await answers(migratedEnv, sources);
    const after = await answers(freshEnv, sources);
    PATHS.forEach((path, i) => assert.deepEqual(before.answers[i], after.answers[i], `SOURCES=${sources} ${path}`));
    assert.deepEqual(before.answers.at(-1), after.answers.at(-1), `SOURCES=${sources} the range as CSV`);
    // With both sources every path has its answer; with one, some are that source's 404 or 400.
    if (sources === 'ecb,nbp') assert.deepEqual(before.answers.map((answer) => answer.status), before.answers.map(() => 200));
  }
  // The key's count went on from where the previous release left it: 42 used of its own 500, then 4 × 12 asked here.
  const last = await answers(migratedEnv, 'ecb');
  assert.equal(last.remaining.at(-1), String(500 - USED - 4 * (PATHS.length + 1)));
  const { server, url } = await startProductionServer({ ...migratedEnv });
  try {
    const usage = await fetch(`${url}/api/v1/usage`, { headers: { authorization: `Bearer ${KEY}` } });
    const used = USED + 4 * (PATHS.length + 1) + 1;
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    assert.equal(await usage.text(), JSON.stringify({
      limit: 500, used, remaining: 500 - used, period_start: iso(PERIOD_START), period_end: iso(PERIOD_START + 30 * 86_400_000),
    }));
  } finally {
    await server.close();
  }
  t.diagnostic(`${PATHS.length + 1} answers compared for each SOURCES`);
}

test('when `migrate` runs on a SQLite file of the previous release, then every value, key and count is kept and every answer is unchanged', async (t) => {
  const dir = tempDir(t);
  const oldPath = join(dir, 'previous.db');
  sqliteAsPreviousRelease(oldPath, await previousRelease('sqlite'));
  const migrate = await runCli(['migrate'], serviceEnv(oldPath));
  assert.equal(migrate.code, 0, describeRun(migrate));
  assert.equal(migrate.stdout.trim(), 'applied 005_one_source_model');
  const again = await runCli(['migrate'], serviceEnv(oldPath));
  assert.equal(again.stdout.trim(), 'schema is up to date');

  const freshPath = join(dir, 'fresh.db');
  await loadedByThisRelease(`sqlite:${freshPath}`);
  await assertAnswersKept(t, { DATABASE_URL: `sqlite:${oldPath}` }, { DATABASE_URL: `sqlite:${freshPath}` });

  // And it goes on as any store of this release: the ECB's next file lands as one source among the others.
  const stores = await openStores(`sqlite:${oldPath}`);
  t.after(() => stores.close());
  const report = await runIngestion(stores.rates, ecb, { file: join(FIXTURES, 'daily.xml') });
  assert.deepEqual([report.added, report.version], [6, 3]);
  assert.deepEqual([await stores.rates.lastDay('ecb'), await stores.rates.lastDay('nbp')], ['2026-07-06', '2026-03-05']);
});

test('when a server starts on a PostgreSQL schema of the previous release, then it migrates it, keeping every value, key and count, and every answer', async (t) => {
  if (!(await requireBackend('PostgreSQL', t))) return;
  const previous = await freshPgSchema(t);
  await pgAsPreviousRelease(previous.url, await previousRelease('postgres'));
  const fresh = await freshPgSchema(t);
  await loadedByThisRelease(fresh.url);
  // The first server started on it migrates it (assertAnswersKept opens the stores first; the servers follow).
  const { server } = await startProductionServer({ DATABASE_URL: previous.url });
  await server.close();
  const tables = await pgQueries(previous.url, async (client) =>
    (await client.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1')).rows.map((row) => row.name),
  );
  assert.deepEqual(tables, ['api_keys', 'data_versions', 'job_claims', 'quota_usage', 'schema_migrations', 'source_days', 'source_rates']);
  await assertAnswersKept(t, { DATABASE_URL: previous.url }, { DATABASE_URL: fresh.url });
});

test('when the migration fails part way on SQLite, then the file is as the previous release left it, and a later run completes it', async (t) => {
  const path = join(tempDir(t), 'previous.db');
  const statements = await previousRelease('sqlite');
  // Refused late in 005, after its rows were copied, its table made and its counter moved.
  const refuse = "CREATE TRIGGER refuse BEFORE DELETE ON data_versions BEGIN SELECT RAISE(ABORT, 'refused by the test'); END";
  sqliteAsPreviousRelease(path, [...statements, { sql: refuse }]);
  const before = dumpDatabase(path);
  const run = await runCli(['migrate'], serviceEnv(path));
  assert.equal(run.code, 1, describeRun(run));
  assert.match(run.stderr, /refused by the test/);
  assert.equal(dumpDatabase(path), before, 'nothing of the migration is left');
  const db = sqliteConnection(path);
  db.exec('DROP TRIGGER refuse');
  db.close();
  const retry = await runCli(['migrate'], serviceEnv(path));
  assert.equal(retry.stdout.trim(), 'applied 005_one_source_model', describeRun(retry));
});

test('when the migration fails part way on PostgreSQL, then the schema is as the previous release left it', async (t) => {
  if (!(await requireBackend('PostgreSQL', t))) return;
  const { url } = await freshPgSchema(t);
  await pgAsPreviousRelease(url, [
    ...(await previousRelease('postgres')),
    { sql: "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$" },
    { sql: 'CREATE TRIGGER refuse BEFORE DELETE ON data_versions FOR EACH ROW EXECUTE FUNCTION refuse()' },
  ]);
  const dump = () =>
    pgQueries(url, async (client) => {
      const tables = (await client.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1')).rows;
      const parts: string[] = [];
      for (const { name } of tables) parts.push(`${name}: ${(await client.query(`SELECT * FROM "${name}"`)).rows.map((row) => JSON.stringify(row)).sort().join('\n')}`);
      return parts.join('\n\n');
    });
  const before = await dump();
  await assert.rejects(openStores(url), /refused by the test/);
  assert.equal(await dump(), before, 'nothing of the migration is left');
});
