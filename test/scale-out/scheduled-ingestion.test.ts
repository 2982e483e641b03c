import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import pino from 'pino';
import { nextPublicationRun } from '../../src/ingest/publication-time.js';
import { runRangeIngestion } from '../../src/ingest/run-ingestion.js';
import { missedDays, runClaimedIngestion, runSchedule, type ScheduledIngestionDeps } from '../../src/ingest/scheduled-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { nbp } from '../../src/ingest/sources/nbp.js';
import type { DayRange, SourceAdapter } from '../../src/ingest/sources/source-adapter.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import type { OpenedStores } from '../../src/storage/ports.js';
import { freshPgSchema, requireBackend } from '../helpers/backends.js';
import { localFeed } from '../helpers/local-feed.js';
import { PROVIDER_FILES, providerBytes, providerText } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ECB_FIXTURES, FIXTURES, ManualClock } from '../helpers/test-server.js';

const log = pino({ level: 'silent' });

/**
 * A source as registered, its latest publication fetched from a local stand-in that counts how
 * often it was asked: the ECB's daily file, or NBP's table A.
 */
async function countingSource(t: TestContext, adapter: SourceAdapter, body: Buffer): Promise<{ adapter: SourceAdapter; fetches(): number }> {
  const { base, asked } = await localFeed(t, () => ({ body }));
  return { adapter: { ...adapter, urls: () => [`${base}/latest`] }, fetches: () => asked.length };
}

/** For each source: what its latest publication holds (values), its day, and an instant after its run's time that day. */
const SOURCES = [
  { adapter: ecb, body: () => readFileSync(FIXTURES + 'daily.xml'), values: 6, day: '2026-07-06', at: Date.UTC(2026, 6, 6, 14, 30) },
  { adapter: nbp, body: () => providerBytes(PROVIDER_FILES.nbpA), values: 128, day: '2026-03-05', at: Date.UTC(2026, 2, 5, 11, 45) },
];

function depsOf(stores: OpenedStores, adapter: SourceAdapter, clock: ManualClock): ScheduledIngestionDeps {
  return { rates: stores.rates, jobs: stores.jobs, adapter, log, clock, onLanded: async () => undefined };
}

function scheduledRunsBehave(name: string, storeConfig: (t: TestContext) => Promise<StoreConfig>, skip: string | false = false) {
  describe(name, { skip }, () => {
    for (const source of SOURCES) {
      const { id } = source.adapter;
      test(`when three instances wake for a day of ${id}, then exactly one fetches and ingests it; later that day nobody runs it again`, async (t) => {
        const { adapter, fetches } = await countingSource(t, source.adapter, source.body());
        const config = await storeConfig(t);
        const fleet: OpenedStores[] = [];
        for (let i = 0; i < 3; i++) fleet.push(await openStores(config));
        t.after(() => Promise.all(fleet.map((stores) => stores.close())));
        const clock = new ManualClock(source.at);
        const ran = await Promise.all(fleet.map((stores, i) => runClaimedIngestion(depsOf(stores, adapter, clock), source.day, `instance-${i}`)));
        assert.equal(ran.filter(Boolean).length, 1, 'one instance ran it');
        assert.equal(fetches(), 1, 'the feed was fetched once');
        assert.equal((await fleet[0]!.rates.rowsSince(0)).rows.length, source.values);

        clock.advance(60 * 60_000);
        assert.equal(await runClaimedIngestion(depsOf(fleet[1]!, adapter, clock), source.day, 'instance-1'), false, 'done for the day');
        assert.equal(fetches(), 1);
        assert.equal(await fleet[2]!.jobs.claim(`ingest:${id}:${source.day}`, 'someone', clock.now(), 60_000), false, 'the slot is ingest:ID:DAY');
        const other = id === 'ecb' ? 'nbp' : 'ecb';
        assert.equal(await fleet[2]!.jobs.claim(`ingest:${other}:${source.day}`, `${other}-run`, clock.now(), 60_000), true, `${other}'s slot is its own`);
        clock.advance(24 * 60 * 60_000);
        const nextDay = new Date(clock.now()).toISOString().slice(0, 10);
        assert.equal(await runClaimedIngestion(depsOf(fleet[2]!, adapter, clock), nextDay, 'instance-2'), true, 'the next day is a new slot');
        assert.equal(fetches(), 2);
      });
    }

    test('when the instance that claimed the day crashed before completing, then another takes the slot over once the lease has run out', async (t) => {
      const { adapter, fetches } = await countingSource(t, ecb, readFileSync(FIXTURES + 'daily.xml'));
      const stores = await openStores(await storeConfig(t));
      t.after(() => stores.close());
      const clock = new ManualClock(Date.UTC(2026, 6, 6, 14, 30));
      assert.equal(await stores.jobs.claim('ingest:ecb:2026-07-06', 'crashed-instance', clock.now(), 10 * 60_000), true);
      const deps = depsOf(stores, adapter, clock);
      assert.equal(await runClaimedIngestion(deps, '2026-07-06', 'survivor'), false, 'the lease still holds');
      clock.advance(10 * 60_000);
      assert.equal(await runClaimedIngestion(deps, '2026-07-06', 'survivor'), true, 'taken over after the lease');
      assert.equal(fetches(), 1);
    });
  });
}

scheduledRunsBehave('on one SQLite file', async (t) => ({ databaseUrl: `sqlite:${join(tempDir(t), 'jobs.db')}` }));
const pgMissing = await requireBackend('PostgreSQL');
scheduledRunsBehave('on PostgreSQL', async (t) => ({ databaseUrl: (await freshPgSchema(t)).url }), pgMissing);

test("when a source's run is scheduled, then it is 30 minutes after its own publication time, or at INGEST_SCHEDULE's UTC time, on its weekdays", () => {
  const next = (now: string, utcMinute?: number) => {
    const { schedule, delayMinutes } = runSchedule(ecb, utcMinute);
    const run = nextPublicationRun(Date.parse(now), schedule, delayMinutes);
    return `${new Date(run.at).toISOString()} ${run.day}`;
  };
  // The ECB: 16:00 in Frankfurt, so 16:30 CET (15:30 UTC) in winter and 16:30 CEST (14:30 UTC) in summer.
  assert.equal(next('2026-11-26T12:00:00Z'), '2026-11-26T15:30:00.000Z 2026-11-26');
  assert.equal(next('2026-07-06T12:00:00Z'), '2026-07-06T14:30:00.000Z 2026-07-06');
  // INGEST_SCHEDULE=16:30: that time in UTC, still Monday to Friday (2026-11-28 is a Saturday).
  assert.equal(next('2026-11-26T12:00:00Z', 16 * 60 + 30), '2026-11-26T16:30:00.000Z 2026-11-26');
  assert.equal(next('2026-11-27T17:00:00Z', 16 * 60 + 30), '2026-11-30T16:30:00.000Z 2026-11-30');
});

test("when the ECB's runs of some days were missed, then the next run fetches them from its 90-day file, keeping only those days", async (t) => {
  // The ECB's own 90-day file (2024-11-28 .. 2025-02-25), and its newest day alone as the daily file.
  const ninetyDays = readFileSync(ECB_FIXTURES + 'eurofxref-hist-90d.xml', 'utf8');
  const daily = `${ninetyDays.slice(0, ninetyDays.indexOf('\n'))}</Cube></gesmes:Envelope>`;
  const { base, asked } = await localFeed(t, (path) => ({ body: path === '/90d' ? ninetyDays : daily }));
  const adapter: SourceAdapter = { ...ecb, urls: (range) => [range ? `${base}/90d` : `${base}/daily`] };
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  await runRangeIngestion(stores.rates, adapter, { from: '2025-02-20', to: '2025-02-20' });
  asked.length = 0;

  assert.equal(await runClaimedIngestion(depsOf(stores, adapter, new ManualClock(Date.UTC(2025, 1, 25, 15, 30))), '2025-02-25', 'one'), true);
  assert.deepEqual(asked, ['/daily', '/90d']);
  const { days } = await stores.rates.daysSince(0);
  assert.deepEqual(days.map((day) => `${day.source} ${day.date}`).sort(), ['ecb 2025-02-20', 'ecb 2025-02-21', 'ecb 2025-02-24', 'ecb 2025-02-25']);
});

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
  const deps: ScheduledIngestionDeps = {
    rates: stores.rates, jobs: stores.jobs, log: logged, clock: new ManualClock(Date.UTC(2026, 2, 5, 11, 45)),
    adapter: { ...nbp, urls: (range) => [range ? `${base}/range/${range.from}/${range.to}/` : `${base}/latest/`] },
    onLanded: async () => void landed++,
  };
  // Stored up to Friday 2026-02-27; the latest publication fetched holds 2026-03-02 .. 03-05.
  await stores.rates.merge('nbp', [{ date: '2026-02-27', currency: 'EUR', value: '4.21' }]);
  assert.equal(await runClaimedIngestion(deps, '2026-03-05', 'one'), true);
  assert.deepEqual(asked, ['/latest/', '/range/2026-02-28/2026-03-04/']);
  assert.equal(landed, 1);
  assert.ok(lines.some((line) => line.startsWith('back-filling nbp: ingested nbp')), lines.join('\n'));

  // The next day, stored to 2026-03-05 by then: nothing is missing, no range is asked.
  asked.length = 0;
  assert.equal(await runClaimedIngestion(deps, '2026-03-06', 'one'), true);
  assert.deepEqual(asked, ['/latest/']);

  // A range the bank fails to answer: the publication still lands, and the log says what to fetch by hand.
  const fresh = await openStores(`sqlite:${join(tempDir(t), 'backfill-2.db')}`);
  t.after(() => fresh.close());
  await fresh.rates.merge('nbp', [{ date: '2026-02-20', currency: 'EUR', value: '4.2' }]);
  asked.length = 0;
  rangeAnswers = 503;
  assert.equal(await runClaimedIngestion({ ...deps, rates: fresh.rates, jobs: fresh.jobs }, '2026-03-05', 'one'), true);
  assert.deepEqual(asked, ['/latest/', '/range/2026-02-21/2026-03-04/']);
  assert.equal(landed, 3, 'landed all the same');
  assert.equal(await fresh.rates.lastDay('nbp'), '2026-03-05');
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
    const deps: ScheduledIngestionDeps = { rates: stores.rates, jobs: stores.jobs, log: logged, clock: new ManualClock(Date.parse(`${day}T11:45:00Z`)), adapter, onLanded: async () => undefined };
    assert.equal(await runClaimedIngestion(deps, day, 'one'), true);
  };
  const storedDays = async (stores: OpenedStores) => {
    const { days } = await stores.rates.daysSince(0);
    return days.map((day) => `${day.date} ${day.rates.includes('EUR=') ? 'A' : '-'}${day.rates.includes('AFN=') ? 'B' : '-'}`).sort();
  };

  // Monday's table A is stored (its run's table B, of the week before, is not recorded).
  const mondayStored = async () => {
    const stores = await openStores('sqlite::memory:');
    t.after(() => stores.close());
    await runRangeIngestion(stores.rates, adapter, { from: '2026-03-02', to: '2026-03-02' });
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
  const { adapter } = await countingSource(t, nbp, providerBytes(PROVIDER_FILES.nbpA));
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  const lines: string[] = [];
  const logged = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  const runs: boolean[] = [];
  const deps: ScheduledIngestionDeps = {
    ...depsOf(stores, adapter, new ManualClock(Date.UTC(2026, 2, 5, 11, 45))),
    log: logged,
    onLanded: async () => Promise.reject(new Error('PostgreSQL is unavailable')),
    onRun: (landed) => void runs.push(landed),
  };
  assert.equal(await runClaimedIngestion(deps, '2026-03-05', 'one'), true);
  assert.deepEqual(runs, [true]);
  assert.equal((await stores.rates.daysSince(0)).days.length, 4);
  assert.ok(lines.includes('scheduled ingestion of nbp stored its values, but this instance could not load them yet: PostgreSQL is unavailable; it serves them once the store answers'), lines.join('\n'));
  assert.deepEqual(lines.filter((line) => line.includes('failed')), []);
});
