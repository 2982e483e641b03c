import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runIngestion, runRangeIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { nbp } from '../../src/ingest/sources/nbp.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import type { DayRange, SourceAdapter } from '../../src/ingest/sources/source-adapter.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES, providerBytes, providerText } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';
import { FIXTURES } from '../helpers/test-server.js';

const RECORDED: [string, string][] = [
  ['nbp', PROVIDER_FILES.nbpA], ['nbp', PROVIDER_FILES.nbpB], ['cnb', PROVIDER_FILES.cnb],
  ['boc', PROVIDER_FILES.boc], ['cbr', PROVIDER_FILES.cbr], ['nbu', PROVIDER_FILES.nbu],
];

test('when every recorded bank file is ingested into a SQLite file, then all 3,083 values land (the time taken is reported)', async (t) => {
  const stores = openSqliteStores(join(tempDir(t), 'rates.db'));
  t.after(() => stores.close());
  // Warm the modules and the connection: the figure is the ingestion's, not the first import's.
  await import('../../src/ingest/parse-rates-file.js');
  const started = performance.now();
  let values = 0;
  for (const [id, file] of RECORDED) {
    const report = await runIngestion(stores.rates, sourceAdapter(id)!, { file: join(PROVIDER_FIXTURES, file) });
    values += report.added;
  }
  const ms = performance.now() - started;
  t.diagnostic(`ingested ${RECORDED.length} recorded files, ${values} values, in ${ms.toFixed(1)} ms`);
  assert.equal(values, 3083);
  assert.equal((await stores.rates.rowsSince(0)).rows.length, 3083);
  assert.equal(await stores.rates.lastDay('ecb'), null);
});

test("when the ECB's file and a bank's are ingested, then both land in the one store, each in its own terms, by the same path", async (t) => {
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  const ecbReport = await runIngestion(stores.rates, ecb, { file: `${FIXTURES}hist.csv` });
  const nbpReport = await runIngestion(stores.rates, nbp, { file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) });
  assert.deepEqual([ecbReport.source, ecbReport.added, ecbReport.version], [`ecb ${FIXTURES}hist.csv`, 22, 1]);
  assert.deepEqual([nbpReport.added, nbpReport.version], [128, 2]);
  const { rows } = await stores.rates.rowsSince(0);
  const value = (source: string, date: string, currency: string) =>
    rows.find((row) => row.source === source && row.date === date && row.currency === currency)?.value;
  assert.equal(value('ecb', '2026-04-13', 'USD'), '1.1684', "the ECB's figure: USD per 1 EUR, as published");
  assert.equal(value('nbp', '2026-03-02', 'EUR'), '4.2304', "NBP's: PLN per 1 EUR");
  assert.deepEqual([await stores.rates.lastDay('ecb'), await stores.rates.lastDay('nbp'), await stores.rates.lastDay('cnb')], ['2026-04-13', '2026-03-05', null]);
});

/** Serves `bodies` by path on a free port for the test's duration. */
async function serve(t: TestContext, bodies: Record<string, Buffer | string>): Promise<string> {
  const server = createServer((request, response) => {
    const body = bodies[request.url ?? ''];
    response.writeHead(body === undefined ? 404 : 200).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("when a source's latest publication is two documents (NBP tables A and B), then their days are combined into one merge", async (t) => {
  const base = await serve(t, { '/a': providerBytes(PROVIDER_FILES.nbpA), '/b': providerBytes(PROVIDER_FILES.nbpB) });
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  const report = await runIngestion(stores.rates, { ...nbp, urls: () => [`${base}/a`, `${base}/b`] });
  assert.deepEqual({ ...report, source: undefined }, {
    source: undefined, days: 4, rates: 128 + 116, added: 244, changed: 0, version: 1, firstDate: '2026-03-02', lastDate: '2026-03-05',
  });
  assert.equal(report.source, `nbp ${base}/a + ${base}/b`);
});

test('when one of the documents is malformed or missing, then nothing of the others lands', async (t) => {
  const broken = providerText(PROVIDER_FILES.nbpB).replace('"code":"AFN"', '"code":"AF"');
  const base = await serve(t, { '/a': providerBytes(PROVIDER_FILES.nbpA), '/b': broken });
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  await assert.rejects(runIngestion(stores.rates, { ...nbp, urls: () => [`${base}/a`, `${base}/b`] }), /\/b: 2026-03-04: invalid currency "AF"/);
  await assert.rejects(runIngestion(stores.rates, { ...nbp, urls: () => [`${base}/a`, `${base}/missing`] }), /the server answered 404/);
  assert.equal(await stores.rates.version(), 0);
});

/** A registered adapter fetching from `base` instead of its bank's host. */
function servedFrom(id: string, base: string): SourceAdapter {
  const adapter = sourceAdapter(id)!;
  return { ...adapter, urls: (range?: DayRange) => adapter.urls(range).map((url) => base + new URL(url).pathname + new URL(url).search) };
}

test("when a range is ingested from a document holding more (CNB's whole year), then only the range's days land; a weekend is nothing to ingest", async (t) => {
  const base = await serve(t, { '/cnbapi/exrates/daily-year?lang=EN&year=2026': providerBytes(PROVIDER_FILES.cnb) });
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  const cnb = servedFrom('cnb', base);
  assert.equal(await runRangeIngestion(stores.rates, cnb, { from: '2026-03-28', to: '2026-03-29' }), undefined);
  assert.equal(await stores.rates.version(), 0);
  const report = await runRangeIngestion(stores.rates, cnb, { from: '2026-03-27', to: '2026-03-31' });
  assert.deepEqual([report?.days, report?.firstDate, report?.lastDate], [3, '2026-03-27', '2026-03-31']);
  assert.deepEqual((await stores.rates.daysSince(0)).days.map((day) => day.date), ['2026-03-27', '2026-03-30', '2026-03-31']);
});

test('when a range holds no publication (an empty document; 404 where the bank says so), then nothing lands and nothing fails; any other fault still fails it', async (t) => {
  const base = await serve(t, {
    '/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-07-01&end_date=2026-07-01': '{"observations":[]}',
    '/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-07-02&end_date=2026-07-02': '{"observations":{}}',
  });
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  const boc = servedFrom('boc', base);
  assert.equal(await runRangeIngestion(stores.rates, boc, { from: '2026-07-01', to: '2026-07-01' }), undefined, 'Canada Day');
  await assert.rejects(runRangeIngestion(stores.rates, boc, { from: '2026-07-02', to: '2026-07-02' }), /"observations": expected an array/);
  await assert.rejects(runRangeIngestion(stores.rates, boc, { from: '2026-07-03', to: '2026-07-03' }), /the server answered 404/, "a 404 is not the Bank of Canada's answer for no data");
  assert.equal(await runRangeIngestion(stores.rates, servedFrom('nbp', base), { from: '2026-07-03', to: '2026-07-03' }), undefined, "NBP's answer for no data: 404");
  assert.equal(await stores.rates.version(), 0);
});
