import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { SourceValue } from '../../src/domain/source-values.js';
import { parseRatesFile } from '../../src/ingest/parse-rates-file.js';
import { StoreUnavailableError, type OpenedStores, type QuotaKey, type QuotaStore } from '../../src/storage/ports.js';
import { openPostgresStores } from '../../src/storage/postgres/open-postgres-stores.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { freshPgSchema, harnessClient, postgresUrl, requireBackend, withSearchPath } from '../helpers/backends.js';
import { historyCsvBytes } from '../helpers/ecb-history-csv.js';
import { startSilentServer, startTcpProxy } from '../helpers/tcp-proxy.js';
import { jobClaimsContract } from './contracts/job-claims-contract.js';
import { keyStoreContract } from './contracts/key-store-contract.js';
import { quotaStoreContract } from './contracts/quota-store-contract.js';
import { ratesStoreContract } from './contracts/rates-store-contract.js';
import { randomKeyHash } from './quota-keys.js';

/** Stores on a schema of the test's own, closed and dropped when the test ends. */
async function openPg(t: TestContext): Promise<OpenedStores> {
  const { url, closeFirst } = await freshPgSchema(t);
  const stores = await openPostgresStores(url);
  closeFirst(() => stores.close());
  return stores;
}

const newKeyIn = (stores: OpenedStores) => async (): Promise<QuotaKey> => {
  const hash = randomKeyHash();
  return { id: (await stores.keys.create(null, hash, new Date())).id, hash };
};

/** Sends consume calls to each store in turn: two pools standing for two processes. */
function alternating(stores: QuotaStore[]): QuotaStore {
  let next = 0;
  return {
    consume: (key, now, policy) => stores[next++ % stores.length]!.consume(key, now, policy),
    usage: (key) => stores[0]!.usage(key),
  };
}

async function assertUnavailable(promise: Promise<unknown>, withinMs: number): Promise<void> {
  const started = performance.now();
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof StoreUnavailableError, `expected StoreUnavailableError, got ${String(err)}`);
    assert.equal(err.backend, 'PostgreSQL');
    return true;
  });
  const elapsed = performance.now() - started;
  assert.ok(elapsed < withinMs, `answered after ${Math.round(elapsed)} ms, expected under ${withinMs} ms`);
}

function valuesOf(days: Awaited<ReturnType<typeof parseRatesFile>>): SourceValue[] {
  const values: SourceValue[] = [];
  for (const day of days) for (const [currency, value] of day.rates) values.push({ date: day.date, currency, value });
  return values;
}

const skip = await requireBackend('PostgreSQL');

describe('PostgreSQL adapters', { skip }, () => {
  ratesStoreContract('rates store', openPg);
  keyStoreContract('key store', openPg);
  quotaStoreContract('quota store', async (t) => {
    const stores = await openPg(t);
    return { quota: stores.quota, newKey: newKeyIn(stores), close: () => stores.close() };
  }, { arrivalOrder: true });
  quotaStoreContract('quota store, requests spread over two pools (two processes) on one schema', async (t) => {
    const { url, closeFirst } = await freshPgSchema(t);
    const [first, second] = await Promise.all([openPostgresStores(url), openPostgresStores(url)]);
    closeFirst(() => first.close());
    closeFirst(() => second.close());
    return {
      quota: alternating([first.quota, second.quota]),
      newKey: newKeyIn(first),
      close: async () => {
        await Promise.all([first.close(), second.close()]);
      },
    };
  });
  jobClaimsContract('job claims', openPg);

  describe('schema and migrations', () => {
    test('when the URL carries options=-c search_path=<schema>, then the tables are created in that schema', async (t) => {
      const { schema, url, closeFirst } = await freshPgSchema(t);
      assert.match(url, /\?options=-c%20search_path%3Dcr_test_[0-9a-f]+$/);
      const stores = await openPostgresStores(url);
      closeFirst(() => stores.close());
      assert.deepEqual(stores.appliedMigrations, ['001_initial', '002_rate_days', '003_key_quota', '004_source_rates', '005_one_source_model']);
      const client = await harnessClient(postgresUrl());
      try {
        const tables = await client.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
          [schema],
        );
        assert.deepEqual(
          tables.rows.map((row) => row.table_name),
          ['api_keys', 'data_versions', 'job_claims', 'quota_usage', 'schema_migrations', 'source_days', 'source_rates'],
        );
      } finally {
        await client.end();
      }
    });

    test('when the stores are opened again, then no migration is applied twice', async (t) => {
      const { url, closeFirst } = await freshPgSchema(t);
      const first = await openPostgresStores(url);
      closeFirst(() => first.close());
      await first.keys.create('kept', 'h'.repeat(64), new Date(0));
      await first.close();
      const second = await openPostgresStores(url);
      closeFirst(() => second.close());
      assert.deepEqual(second.appliedMigrations, []);
      assert.equal((await second.keys.list())[0]?.name, 'kept');
    });

    test('when several instances open one fresh schema at once, then all succeed and the migration runs once', async (t) => {
      const { url, closeFirst } = await freshPgSchema(t);
      const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgresStores(url)));
      for (const stores of opened) closeFirst(() => stores.close());
      assert.deepEqual(opened.map((stores) => stores.appliedMigrations).flat(), ['001_initial', '002_rate_days', '003_key_quota', '004_source_rates', '005_one_source_model']);
      await Promise.all(opened.map((stores) => stores.ping()));
    });
  });

  describe('the same answers as SQLite', () => {
    test('when the same merges run on both, then every report and every rowsSince answer is identical, order included', async (t) => {
      const pgStores = await openPg(t);
      const sqlite = openSqliteStores(':memory:');
      t.after(() => sqlite.close());
      const merges: [string, SourceValue[]][] = [
        ['ecb', [{ date: '2026-11-20', currency: 'USD', value: '1.0600' }, { date: '2026-11-19', currency: 'USD', value: '1.0567' },
          { date: '2026-11-19', currency: 'CHF', value: '0.9312' }]],
        ['ecb', [{ date: '2026-11-21', currency: 'GBP', value: '0.83300' }, { date: '2026-11-19', currency: 'CHF', value: '0.9313' }]],
        ['nbp', [{ date: '2026-11-19', currency: 'USD', value: '3.6056' }, { date: '2026-11-19', currency: 'EUR', value: '4.2304' }]],
        ['ecb', []],
        ['ecb', [{ date: '1999-01-04', currency: 'USD', value: '1.1789' }, { date: '2026-11-20', currency: 'USD', value: '1.0600' }]],
      ];
      for (const [source, values] of merges) assert.deepEqual(await pgStores.rates.merge(source, values), await sqlite.rates.merge(source, values));
      for (let version = 0; version <= 5; version++) {
        assert.deepEqual(await pgStores.rates.rowsSince(version), await sqlite.rates.rowsSince(version), `rowsSince(${version})`);
      }
    });
  });

  describe('the full ECB history', () => {
    test('when ~218,000 rows are merged, then it takes seconds, and PostgreSQL returns what SQLite returns', async (t) => {
      const rows = valuesOf(await parseRatesFile(await historyCsvBytes(), 'eurofxref-hist.csv'));
      assert.ok(rows.length > 200_000, `${rows.length} rows`);
      const stores = await openPg(t);

      let started = performance.now();
      const report = await stores.rates.merge('ecb', rows);
      const mergeMs = performance.now() - started;
      started = performance.now();
      const again = await stores.rates.merge('ecb', rows);
      const remergeMs = performance.now() - started;
      started = performance.now();
      const all = await stores.rates.rowsSince(0);
      const readMs = performance.now() - started;
      const line =
        `PostgreSQL, full history (${rows.length} rows, ${report.days} days): merge ${Math.round(mergeMs)} ms, ` +
        `re-merge (no change) ${Math.round(remergeMs)} ms, rowsSince(0) ${Math.round(readMs)} ms`;
      t.diagnostic(line);
      console.log(`# ${line}`);

      assert.deepEqual(report, { days: report.days, rates: rows.length, added: rows.length, changed: 0, version: 1 });
      assert.deepEqual(again, { ...report, added: 0 });
      assert.ok(mergeMs < 15_000, `full-history merge took ${Math.round(mergeMs)} ms`);

      // The reference: the SQLite adapter, fed the same rows, reports and returns the same, in the same order.
      const sqlite = openSqliteStores(':memory:');
      t.after(() => sqlite.close());
      assert.deepEqual(await sqlite.rates.merge('ecb', rows), report);
      assert.deepEqual(all, await sqlite.rates.rowsSince(0));
    });
  });

  describe('when PostgreSQL goes away', () => {
    test('when the server drops every connection and refuses new ones, then each store answers StoreUnavailableError, and recovers', async (t) => {
      const target = new URL(postgresUrl());
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      t.after(() => proxy.close());
      const { url, closeFirst } = await freshPgSchema(t);
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const stores = await openPostgresStores(proxied.toString());
      closeFirst(() => stores.close());
      const keyId = (await stores.keys.create(null, 'k'.repeat(64), new Date())).id;
      const key = { id: keyId, hash: 'k'.repeat(64) };
      await stores.quota.consume(key, 0, { limit: 10, periodMs: 1_000 });

      await proxy.cut();
      await assertUnavailable(stores.ping(), 3_000);
      await assertUnavailable(stores.quota.consume(key, 1, { limit: 10, periodMs: 1_000 }), 3_000);
      await assertUnavailable(stores.quota.usage(keyId), 3_000);
      await assertUnavailable(stores.rates.merge('ecb', [{ date: '2026-11-20', currency: 'USD', value: '1.06' }]), 3_000);
      await assertUnavailable(stores.rates.rowsSince(0), 3_000);
      await assertUnavailable(stores.keys.findActive('k'.repeat(64)), 3_000);
      await assertUnavailable(stores.keys.activeKeys(), 3_000);
      await assertUnavailable(stores.jobs.claim('slot', 'me', 0, 1_000), 3_000);

      await proxy.restore();
      await stores.ping();
      assert.deepEqual(await stores.quota.consume(key, 2, { limit: 10, periodMs: 1_000 }), { allowed: true, used: 2, periodStart: 0 });
    });
  });
});

describe('PostgreSQL adapters, server unreachable', () => {
  test('when nothing listens on the port, then openPostgresStores rejects with StoreUnavailableError at once', async () => {
    await assertUnavailable(openPostgresStores('postgres://postgres@127.0.0.1:1/test'), 3_000);
  });

  test('when the server accepts but never answers, then openPostgresStores rejects with StoreUnavailableError within the connect timeout', async (t) => {
    const silent = await startSilentServer();
    t.after(() => silent.close());
    await assertUnavailable(openPostgresStores(withSearchPath(`postgres://postgres@127.0.0.1:${silent.port}/test`, 'x')), 4_000);
  });
});
