import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import pino from 'pino';
import { runSourceRangeIngestion } from '../../src/ingest/run-source-ingestion.js';
import { missedDays, runClaimedSourceIngestion, type ScheduledSourceDeps } from '../../src/ingest/scheduled-source-ingestion.js';
import { nbp } from '../../src/ingest/sources/nbp.js';
import type { DayRange } from '../../src/ingest/sources/source-adapter.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import type { OpenedStores } from '../../src/storage/ports.js';
import { freshPgSchema, requireBackend } from '../helpers/backends.js';
import { localFeed } from '../helpers/local-feed.js';
import { PROVIDER_FILES, providerBytes, providerText } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ManualClock } from '../helpers/test-server.js';

const log = pino({ level: 'silent' });

/** A local stand-in for NBP's table A that counts how often it was fetched. */
async function countingFeed(t: TestContext): Promise<{ url: string; fetches(): number }> {
  const body = providerBytes(PROVIDER_FILES.nbpA);
  const { base, asked } = await localFeed(t, () => ({ body }));
  return { url: `${base}/api/exchangerates/tables/A/`, fetches: () => asked.length };
}

function depsOf(stores: OpenedStores, url: string, clock: ManualClock): ScheduledSourceDeps {
  // NBP as registered, fetching from the local feed instead of api.nbp.pl.
  return { stores, jobs: stores.jobs, adapter: { ...nbp, urls: () => [url] }, log, clock, onLanded: async () => undefined };
}

function scheduledSourceRunsBehave(name: string, storeConfig: (t: TestContext) => Promise<StoreConfig>, skip: string | false = false) {
  describe(name, { skip }, () => {
    test("when three instances wake for a source's day, then exactly one fetches and ingests it; the ECB's slot of that day is another", async (t) => {
      const feed = await countingFeed(t);
      const config = await storeConfig(t);
      const fleet: OpenedStores[] = [];
      for (let i = 0; i < 3; i++) fleet.push(await openStores(config));
      t.after(() => Promise.all(fleet.map((stores) => stores.close())));
      const clock = new ManualClock(Date.UTC(2026, 2, 5, 11, 45));
      const ran = await Promise.all(fleet.map((stores, i) => runClaimedSourceIngestion(depsOf(stores, feed.url, clock), '2026-03-05', `instance-${i}`)));
      assert.equal(ran.filter(Boolean).length, 1, 'one instance ran it');
      assert.equal(feed.fetches(), 1);
      assert.equal((await fleet[0]!.sourceRates.rowsSince(0)).rows.length, 128);

      clock.advance(60 * 60_000);
      assert.equal(await runClaimedSourceIngestion(depsOf(fleet[1]!, feed.url, clock), '2026-03-05', 'instance-1'), false, 'done for the day');
      assert.equal(feed.fetches(), 1);
      assert.equal(await fleet[2]!.jobs.claim('ingest:nbp:2026-03-05', 'someone', clock.now(), 60_000), false, 'the slot is ingest:nbp:DAY');
      assert.equal(await fleet[2]!.jobs.claim('ingest:2026-03-05', 'ecb-run', clock.now(), 60_000), true, "the ECB's slot is its own");
      assert.equal(await runClaimedSourceIngestion(depsOf(fleet[2]!, feed.url, clock), '2026-03-06', 'instance-2'), true, 'the next day is a new slot');
      assert.equal(feed.fetches(), 2);
    });
  });
}

scheduledSourceRunsBehave('on one SQLite file', async (t) => ({ databaseUrl: `sqlite:${join(tempDir(t), 'jobs.db')}` }));
const pgMissing = await requireBackend('PostgreSQL');
scheduledSourceRunsBehave('on PostgreSQL', async (t) => ({ databaseUrl: (await freshPgSchema(t)).url }), pgMissing);

test('when the newest stored day lies before the day before the newest fetched one, then the days between are missed: at most 31, none before a first ingestion', () => {
  assert.equal(missedDays(null, '2026-03-02'), undefined, 'the first ingestion is by hand');
  assert.equal(missedDays('2026-03-01', '2026-03-02'), undefined);
  assert.equal(missedDays('2026-03-05', '2026-03-02'), undefined, 'already stored further (a bank publishing ahead)');
  assert.deepEqual(missedDays('2026-02-27', '2026-03-02'), { from: '2026-02-28', to: '2026-03-01' });
  assert.deepEqual(missedDays('2025-12-01', '2026-03-02'), { from: '2026-01-30', to: '2026-03-01' });
});

test('when a run finds days missing before the publication it fetched, then it fetches them by range; a failed range leaves the publication landed and says so', async (t) => {
  const tableA = providerBytes(PROVIDER_FILES.nbpA);
  let rangeAnswers = 200;
  const { base, asked } = await localFeed(t, (path) =>
    path.includes('/range/') && rangeAnswers !== 200 ? { status: rangeAnswers, body: 'Brak danych' } : { body: tableA },
  );
  const lines: string[] = [];
  const logged = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });

  const stores = await openStores(`sqlite:${join(tempDir(t), 'backfill.db')}`);
  t.after(() => stores.close());
  let landed = 0;
  const deps: ScheduledSourceDeps = {
    stores, jobs: stores.jobs, log: logged, clock: new ManualClock(Date.UTC(2026, 2, 5, 11, 45)),
    adapter: { ...nbp, urls: (range) => [range ? `${base}/range/${range.from}/${range.to}/` : `${base}/latest/`] },
    onLanded: async () => void landed++,
  };
  // Stored up to Friday 2026-02-27; the latest publication fetched holds 2026-03-02 .. 03-05.
  await stores.sourceRates.merge('nbp', [{ date: '2026-02-27', currency: 'EUR', value: '4.21' }]);
  assert.equal(await runClaimedSourceIngestion(deps, '2026-03-05', 'one'), true);
  assert.deepEqual(asked, ['/latest/', '/range/2026-02-28/2026-03-04/']);
  assert.equal(landed, 1);
  assert.ok(lines.some((line) => line.startsWith('back-filling nbp: ingested nbp')), lines.join('\n'));

  // The next day, stored to 2026-03-05 by then: nothing is missing, no range is asked.
  asked.length = 0;
  assert.equal(await runClaimedSourceIngestion(deps, '2026-03-06', 'one'), true);
  assert.deepEqual(asked, ['/latest/']);

  // A range the bank fails to answer: the publication still lands, and the log says what to fetch by hand.
  const fresh = await openStores(`sqlite:${join(tempDir(t), 'backfill-2.db')}`);
  t.after(() => fresh.close());
  await fresh.sourceRates.merge('nbp', [{ date: '2026-02-20', currency: 'EUR', value: '4.2' }]);
  asked.length = 0;
  rangeAnswers = 503;
  assert.equal(await runClaimedSourceIngestion({ ...deps, stores: fresh, jobs: fresh.jobs }, '2026-03-05', 'one'), true);
  assert.deepEqual(asked, ['/latest/', '/range/2026-02-21/2026-03-04/']);
  assert.equal(landed, 3, 'landed all the same');
  assert.equal((await fresh.sourceRates.summary()).sources[0]!.lastDay, '2026-03-05');
  assert.ok(lines.some((line) => /^back-filling nbp from 2026-02-21 to 2026-03-04 failed: .*503.*ingest --source nbp --url/.test(line)), lines.join('\n'));
});

/** NBP's recorded tables one by one (text cut from the recorded files, never re-encoded). */
function recordedNbpTables(): { kind: string; date: string; text: string }[] {
  const tables: { kind: string; date: string; text: string }[] = [];
  for (const file of [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB]) {
    const text = providerText(file).trim();
    const starts = [...text.matchAll(/\{"table":"([AB])","no":"[^"]*","effectiveDate":"([\d-]+)"/g)];
    starts.forEach((start, i) => {
      const end = i + 1 < starts.length ? starts[i + 1]!.index - 1 : text.length - 1;
      tables.push({ kind: start[1]!, date: start[2]!, text: text.slice(start.index, end) });
    });
  }
  return tables;
}

/**
 * A local api.nbp.pl as its manual describes it, on `today`: a table's latest is the newest up to
 * that day, a range gives the tables in it or 404 "Brak danych" when there are none.
 */
async function nbpFeed(t: TestContext, today: () => string) {
  const tables = recordedNbpTables();
  const { base, asked } = await localFeed(t, (path) => {
    const [, kind, from, to] = /^\/api\/exchangerates\/tables\/([AB])\/(?:([\d-]+)\/([\d-]+)\/)?\?format=json$/.exec(path)!;
    const found = tables.filter((table) => table.kind === kind && (from ? table.date >= from && table.date <= to! : table.date <= today()));
    const answered = from ? found : found.slice(-1);
    return answered.length === 0 ? { status: 404, body: '404 NotFound - Not Found - Brak danych' } : { body: `[${answered.map((table) => table.text).join(',')}]` };
  });
  const adapter = { ...nbp, urls: (range?: DayRange) => nbp.urls(range).map((url) => url.replace('https://api.nbp.pl', base)) };
  return { adapter, asked };
}

test("when NBP's runs of some days were missed, then the next run fetches table A of every missed day and table B where there is one; a range without a table B is no failure", async (t) => {
  let today = '2026-03-05';
  const { adapter, asked } = await nbpFeed(t, () => today);
  const lines: string[] = [];
  const logged = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  const run = async (stores: OpenedStores, day: string) => {
    today = day;
    asked.length = 0;
    lines.length = 0;
    const deps: ScheduledSourceDeps = { stores, jobs: stores.jobs, log: logged, clock: new ManualClock(Date.parse(`${day}T11:45:00Z`)), adapter, onLanded: async () => undefined };
    assert.equal(await runClaimedSourceIngestion(deps, day, 'one'), true);
  };
  const storedDays = async (stores: OpenedStores) => {
    const { days } = await stores.sourceRates.daysSince(0);
    return days.map((day) => `${day.date} ${day.rates.includes('EUR=') ? 'A' : '-'}${day.rates.includes('AFN=') ? 'B' : '-'}`);
  };

  // Monday's table A is stored (its run's table B, of the week before, is not recorded).
  const mondayStored = async () => {
    const stores = await openStores('sqlite::memory:');
    t.after(() => stores.close());
    await runSourceRangeIngestion(stores, adapter, { from: '2026-03-02', to: '2026-03-02' });
    return stores;
  };

  // Tuesday's and Wednesday's runs were missed; Thursday's finds them.
  const stores = await mondayStored();
  await run(stores, '2026-03-05');
  assert.deepEqual(asked.map((path) => path.replace('?format=json', '')), [
    '/api/exchangerates/tables/A/', '/api/exchangerates/tables/B/',
    '/api/exchangerates/tables/A/2026-03-03/2026-03-04/', '/api/exchangerates/tables/B/2026-03-03/2026-03-04/',
  ]);
  assert.deepEqual(await storedDays(stores), ['2026-03-02 A-', '2026-03-03 A-', '2026-03-04 AB', '2026-03-05 A-']);
  assert.ok(lines.some((line) => line.startsWith('back-filling nbp: ingested nbp')), lines.join('\n'));

  // Only Tuesday's run missed; Wednesday's finds it: no table B that Tuesday, and no warning for it.
  const other = await mondayStored();
  await run(other, '2026-03-04');
  assert.deepEqual(await storedDays(other), ['2026-03-02 A-', '2026-03-03 A-', '2026-03-04 AB']);
  assert.ok(lines.some((line) => line.startsWith('back-filling nbp: ingested nbp')), lines.join('\n'));
  assert.deepEqual(lines.filter((line) => line.includes('failed')), []);
});

test('when a run stored its values but this instance cannot load them, then the log says they are stored, not that the run failed', async (t) => {
  const feed = await countingFeed(t);
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const lines: string[] = [];
  const logged = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  const runs: boolean[] = [];
  const deps: ScheduledSourceDeps = {
    ...depsOf(stores, feed.url, new ManualClock(Date.UTC(2026, 2, 5, 11, 45))),
    log: logged,
    onLanded: async () => Promise.reject(new Error('PostgreSQL is unavailable')),
    onRun: (landed) => void runs.push(landed),
  };
  assert.equal(await runClaimedSourceIngestion(deps, '2026-03-05', 'one'), true);
  assert.deepEqual(runs, [true]);
  assert.equal((await stores.sourceRates.daysSince(0)).days.length, 4);
  assert.ok(lines.includes('scheduled ingestion of nbp stored its values, but this instance could not load them yet: PostgreSQL is unavailable; it serves them once the store answers'), lines.join('\n'));
  assert.deepEqual(lines.filter((line) => line.includes('failed')), []);
});
