import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { runRangeIngestion } from '../../src/ingest/run-ingestion.js';
import { sourceRequests } from '../../src/ingest/source-requests.js';
import { eachDay } from '../../src/ingest/sources/day-range.js';
import { nbp } from '../../src/ingest/sources/nbp.js';
import type { DayRange } from '../../src/ingest/sources/source-adapter.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { askingAt, bankEndpoint } from '../helpers/bank-endpoint.js';
import { PROVIDER_FILES, providerBytes, providerText } from '../helpers/provider-fixtures.js';

/**
 * NBP answers at most 93 days a request ("a single enquiry cannot cover a period longer than 93
 * days", its manual): a longer back-fill (`ingest --source nbp --since DATE`, the daily run's
 * missed days) is asked as consecutive ranges of at most 93 days, per table, and lands all or nothing.
 */

const TABLES = { A: PROVIDER_FILES.nbpA, B: PROVIDER_FILES.nbpB } as const;

/** The days a recorded table file holds, from its text. */
const recordedDays = (file: string) => [...providerText(file).matchAll(/"effectiveDate":"(\d{4}-\d{2}-\d{2})"/g)].map((match) => match[1]!);

/**
 * NBP's endpoint holding only the recorded tables: a range over 93 days is refused (400, as NBP
 * does), a range holding none of a table's recorded days is 404 ("Brak danych", NBP's no data), one
 * holding them all is the recorded body. `fail` names a request (by its order) answered 500 instead.
 */
async function recordedNbp(t: TestContext, fail?: number) {
  let sent = 0;
  return bankEndpoint(t, (request) => {
    const asked = /^\/api\/exchangerates\/tables\/([AB])\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\/\?format=json$/.exec(request.url);
    if (asked === null) return { status: 400, body: '400 BadRequest - Błędny zakres dat / Invalid date range' };
    const table = asked[1] === 'A' ? 'A' : 'B';
    const from = asked[2]!;
    const to = asked[3]!;
    if (eachDay({ from, to }).length > 93) return { status: 400, body: '400 BadRequest - Przekroczony limit 93 dni / Limit of 93 days has been exceeded' };
    if (fail !== undefined && fail === sent++) return { status: 500, body: 'Internal Server Error' };
    const days = recordedDays(TABLES[table]);
    const inRange = days.filter((day) => day >= from && day <= to);
    if (inRange.length === 0) return { status: 404, body: '404 NotFound - Not Found - Brak danych' };
    if (inRange.length !== days.length) return { status: 500, body: `the recording cannot be cut at ${from}..${to}` };
    return { body: providerBytes(TABLES[table]) };
  });
}

/** 200 days, 2025-11-20 .. 2026-06-07: the recorded days (2026-03-02 .. 05) fall in the second piece. */
const RANGE: DayRange = { from: '2025-11-20', to: '2026-06-07' };

const path = (table: string, from: string, to: string) => `/api/exchangerates/tables/${table}/${from}/${to}/?format=json`;

test('when a range is no longer than 93 days, then it is one request per table; a day longer, two', () => {
  const asked = (range: DayRange) => sourceRequests(nbp, range).map(({ url }) => new URL(url).pathname);
  assert.equal(eachDay({ from: '2026-01-01', to: '2026-04-03' }).length, 93);
  assert.deepEqual(asked({ from: '2026-01-01', to: '2026-04-03' }), [
    '/api/exchangerates/tables/A/2026-01-01/2026-04-03/',
    '/api/exchangerates/tables/B/2026-01-01/2026-04-03/',
  ]);
  assert.deepEqual(asked({ from: '2026-01-01', to: '2026-04-04' }), [
    '/api/exchangerates/tables/A/2026-01-01/2026-04-03/',
    '/api/exchangerates/tables/B/2026-01-01/2026-04-03/',
    '/api/exchangerates/tables/A/2026-04-04/2026-04-04/',
    '/api/exchangerates/tables/B/2026-04-04/2026-04-04/',
  ]);
  assert.deepEqual(asked({ from: '2026-03-04', to: '2026-03-04' }), ['/api/exchangerates/tables/A/2026-03-04/2026-03-04/', '/api/exchangerates/tables/B/2026-03-04/2026-03-04/']);
});

test('when 200 days of NBP are back-filled, then it asks three consecutive ranges of at most 93 days per table, and the recorded days land', async (t) => {
  assert.equal(eachDay(RANGE).length, 200);
  const { base, received } = await recordedNbp(t);
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  const report = await runRangeIngestion(stores.rates, askingAt(nbp, base), RANGE, RANGE.to);
  assert.deepEqual(received.map(({ method, url }) => `${method} ${url}`), [
    `GET ${path('A', '2025-11-20', '2026-02-20')}`, // 93 days
    `GET ${path('B', '2025-11-20', '2026-02-20')}`,
    `GET ${path('A', '2026-02-21', '2026-05-24')}`, // 93 days
    `GET ${path('B', '2026-02-21', '2026-05-24')}`,
    `GET ${path('A', '2026-05-25', '2026-06-07')}`, // the 14 left
    `GET ${path('B', '2026-05-25', '2026-06-07')}`,
  ]);
  // Table A: 4 days of 32 currencies; table B: 2026-03-04, 116 (the store's figures as the files give them).
  assert.deepEqual([report?.days, report?.rates, report?.added, report?.firstDate, report?.lastDate], [4, 128 + 116, 244, '2026-03-02', '2026-03-05']);
  const { rows } = await stores.rates.rowsSince(0);
  const value = (date: string, currency: string) => rows.find((row) => row.source === 'nbp' && row.date === date && row.currency === currency)?.value;
  assert.equal(value('2026-03-02', 'USD'), '3.6056', 'table A of 2026-03-02: "code":"USD","mid":3.6056');
  assert.equal(value('2026-03-05', 'EUR'), /"effectiveDate":"2026-03-05".*?"code":"EUR","mid":([0-9.]+)/.exec(providerText(PROVIDER_FILES.nbpA))![1]);
  assert.equal(value('2026-03-04', 'AFN'), '0.056626', 'table B of 2026-03-04: "code":"AFN","mid":0.056626');
  // Exactly what the two recorded files give, read whole.
  const parsed = [...(await nbp.parse(providerBytes(TABLES.A), 'A')), ...(await nbp.parse(providerBytes(TABLES.B), 'B'))];
  const expected = parsed.flatMap(({ date, values }) => [...values].map(([currency, v]) => `${date} ${currency} ${v}`)).sort();
  assert.deepEqual(rows.map((row) => `${row.date} ${row.currency} ${row.value}`).sort(), expected);
});

test('when any one of the six requests of a 200-day back-fill fails, then nothing of the others lands', async (t) => {
  for (let fail = 0; fail < 6; fail++) {
    const { base, received } = await recordedNbp(t, fail);
    const stores = openSqliteStores(':memory:');
    t.after(() => stores.close());
    await assert.rejects(runRangeIngestion(stores.rates, askingAt(nbp, base), RANGE, RANGE.to), /the server answered 500/, `request #${fail + 1} fails`);
    assert.equal(received.length, fail + 1, 'the run stops at the failed request');
    assert.equal(await stores.rates.version(), 0, `request #${fail + 1} failed: nothing stored`);
    assert.deepEqual((await stores.rates.rowsSince(0)).rows, []);
  }
});
