import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import { openStores } from '../../src/storage/open-stores.js';
import { expectError, expectJson, MSG, remainingOf } from '../helpers/http-expect.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { FIXTURES, read, startTestApp } from '../helpers/test-server.js';

/**
 * GET /api/v1/sources (DECISIONS §9, docs/api.md): each enabled source in SOURCES order with the
 * codes stored from it and its first and last stored day, over HTTP byte for byte. The codes of
 * the banks' files are read here straight from their JSON, not through the adapters.
 */

const V1 = '/api/v1';
const provider = (name: string) => join(PROVIDER_FIXTURES, name);
const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

const NBP_CODES = sorted(
  [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB].flatMap((file) =>
    (JSON.parse(readFileSync(provider(file), 'utf8')) as { rates: { code: string }[] }[]).flatMap((table) => table.rates.map((rate) => rate.code)),
  ),
);
const CNB_CODES = sorted((JSON.parse(readFileSync(provider(PROVIDER_FILES.cnb), 'utf8')) as { rates: { currencyCode: string }[] }).rates.map((rate) => rate.currencyCode));
const NBU_CODES = sorted((JSON.parse(readFileSync(provider(PROVIDER_FILES.nbu), 'utf8')) as { cc: string }[]).map((row) => row.cc));

// DECISIONS §15: each entry also says the bank's country, what its number is, how often and since when it publishes.
const ECB = {
  id: 'ecb',
  name: 'European Central Bank',
  base: 'EUR',
  url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
  country: 'EU',
  rate_type: 'reference',
  cadence: 'daily',
  publishes_from: '1999-01-04',
};
const NBP = {
  id: 'nbp', name: 'Narodowy Bank Polski', base: 'PLN', url: 'https://api.nbp.pl/en.html',
  country: 'PL', rate_type: 'average rate', cadence: 'daily', publishes_from: '2002-01-02',
};
const CNB = {
  id: 'cnb', name: sourceAdapter('cnb')!.name, base: 'CZK', url: sourceAdapter('cnb')!.homepage,
  country: 'CZ', rate_type: 'official fixing', cadence: 'daily', publishes_from: '1991-01-01',
};
const NBU = {
  id: 'nbu', name: sourceAdapter('nbu')!.name, base: 'UAH', url: sourceAdapter('nbu')!.homepage,
  country: 'UA', rate_type: 'official rate', cadence: 'daily', publishes_from: null,
};
const CBR = {
  id: 'cbr', name: sourceAdapter('cbr')!.name, base: 'RUB', url: sourceAdapter('cbr')!.homepage,
  country: 'RU', rate_type: 'official rate', cadence: 'daily', publishes_from: '1992-07-01',
};
const BOC = {
  id: 'boc', name: sourceAdapter('boc')!.name, base: 'CAD', url: sourceAdapter('boc')!.homepage,
  country: 'CA', rate_type: 'average of the day', cadence: 'daily', publishes_from: '2017-01-03',
};
const EMPTY = { codes: [], first_day: null, last_day: null };

const ingested = [
  { source: 'nbp', file: provider(PROVIDER_FILES.nbpA) },
  { source: 'nbp', file: provider(PROVIDER_FILES.nbpB) },
  { source: 'cnb', file: provider(PROVIDER_FILES.cnb) },
  { source: 'nbu', file: provider(PROVIDER_FILES.nbu) },
  // Stored but not enabled: never listed.
  { source: 'boc', file: provider(PROVIDER_FILES.boc) },
];

test('when several sources are enabled, then /sources lists each in SOURCES order with its stored codes and days', async (t) => {
  // The files hold what the fixtures README says: pinned here so that a changed file is noticed.
  assert.deepEqual([NBP_CODES.length, CNB_CODES.length, NBU_CODES.length], [148, 30, 45]);
  const server = await startTestApp(t, { ingest: ['hist.csv'], ingestSources: ingested, env: { SOURCES: 'nbu,ecb,cbr,nbp,cnb' } });
  const expected = [
    { ...NBU, codes: NBU_CODES, first_day: '2026-03-01', last_day: '2026-03-16' },
    // hist.csv: every stored code, BGN included though it has no rate on the last day.
    { ...ECB, codes: ['BGN', 'CHF', 'GBP', 'HUF', 'JPY', 'USD'], first_day: '2022-08-31', last_day: '2026-04-13' },
    { ...CBR, ...EMPTY },
    { ...NBP, codes: NBP_CODES, first_day: '2026-03-02', last_day: '2026-03-05' },
    { ...CNB, codes: CNB_CODES, first_day: '2026-01-02', last_day: '2026-04-02' },
  ];
  const first = await expectJson(server.get(`${V1}/sources`), 200, expected);
  assert.equal(first.text, JSON.stringify(expected), 'keys in the documented order');
  // Counted like every API request, and conditional like them.
  const second = await expectJson(server.get(`${V1}/sources`, { headers: { 'if-none-match': 'W/"nothing"' } }), 200, expected);
  assert.equal(remainingOf(second), remainingOf(first) - 1);
  const notModified = await server.get(`${V1}/sources`, { headers: { 'if-none-match': first.headers.get('etag')! } });
  assert.equal(notModified.status, 304);
  assert.equal(remainingOf(await read(notModified)), remainingOf(first) - 2);
  await expectError(server.get(`${V1}/sources`, { auth: false }), 401, MSG.malformedAuth);
  // What the ECB rates answer is not changed by the other sources.
  assert.equal((await read(await server.get(`${V1}/rates/latest?symbols=USD`))).text, '{"base":"EUR","date":"2026-04-13","rates":{"USD":"1.168400"}}');
});

test('when SOURCES is the default and nothing is ingested, then /sources lists the ECB alone with no codes and null days', async (t) => {
  const server = await startTestApp(t);
  await expectJson(server.get(`${V1}/sources`), 200, [{ ...ECB, ...EMPTY }]);
});

test('when a source is ingested while the server runs, then /sources shows it within 5 s, the ECB too', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'], env: { SOURCES: 'ecb,boc' } });
  await expectJson(server.get(`${V1}/sources`), 200, [
    { ...ECB, codes: ['BGN', 'CHF', 'GBP', 'HUF', 'JPY', 'USD'], first_day: '2022-08-31', last_day: '2026-04-13' },
    { ...BOC, ...EMPTY },
  ]);
  const stores = await openStores(server.storeConfig);
  try {
    await runIngestion(stores.rates, sourceAdapter('boc')!, { file: provider(PROVIDER_FILES.boc) });
    await runIngestion(stores.rates, ecb, { file: `${FIXTURES}daily.xml` });
  } finally {
    await stores.close();
  }
  const expected = [
    // daily.xml adds 2026-07-06 and ISK.
    { ...ECB, codes: ['BGN', 'CHF', 'GBP', 'HUF', 'ISK', 'JPY', 'USD'], first_day: '2022-08-31', last_day: '2026-07-06' },
    {
      ...BOC,
      codes: ['AUD', 'BRL', 'CHF', 'CNY', 'EUR', 'GBP', 'HKD', 'IDR', 'INR', 'JPY', 'KRW', 'MXN', 'NOK', 'NZD', 'PEN', 'RUB', 'SAR', 'SEK', 'SGD', 'TRY', 'TWD', 'USD', 'ZAR'],
      first_day: '2026-03-12',
      last_day: '2026-03-18',
    },
  ];
  const deadline = Date.now() + 5000;
  let body: unknown;
  do {
    body = (await read(await server.get(`${V1}/sources`))).json;
    if (JSON.stringify(body) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < deadline);
  assert.deepEqual(body, expected);
});
