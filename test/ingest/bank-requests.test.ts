import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runIngestion, runRangeIngestion } from '../../src/ingest/run-ingestion.js';
import { sourceRequests } from '../../src/ingest/source-requests.js';
import { recentDays } from '../../src/ingest/sources/day-range.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import type { SourceAdapter } from '../../src/ingest/sources/source-adapter.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { askingAt, bankEndpoint, soapOperation, type Received } from '../helpers/bank-endpoint.js';
import { PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';

/**
 * The real fetch of the banks whose endpoint a plain GET does not answer (the recorded README of
 * providers/more): Mongolbank's JSON POST, the SOAP services of the Central Bank of Armenia, the
 * Banco Central del Uruguay and the Magyar Nemzeti Bank, and Bank Negara Malaysia's Accept header.
 * A local endpoint checks each request's method, headers and body as the bank's would, answers
 * the recorded body (or refuses, as the bank does), and what lands is what the recorded files give.
 */

const more = (id: string, name: string) => readFileSync(join(PROVIDER_FIXTURES, 'more', id, name));
const recorded = (id: string) => readdirSync(join(PROVIDER_FIXTURES, 'more', id)).sort();
const adapter = (id: string): SourceAdapter => sourceAdapter(id)!;
const refused = { status: 415, body: 'not what this endpoint takes' };

/** What the source's recorded files give, as stored rows `date currency value`, sorted. */
async function parsedRows(id: string, names: readonly string[]): Promise<string[]> {
  const rows = new Map<string, string>();
  for (const name of names) for (const day of await adapter(id).parse(more(id, name), name)) for (const [code, value] of day.values) rows.set(`${day.date} ${code}`, value);
  return [...rows].map(([key, value]) => `${key} ${value}`).sort();
}

function store(t: TestContext) {
  const stores = openSqliteStores(':memory:');
  t.after(() => stores.close());
  return stores;
}

async function storedRows(stores: ReturnType<typeof openSqliteStores>, id: string): Promise<string[]> {
  const { rows } = await stores.rates.rowsSince(0);
  return rows.filter((row) => row.source === id).map((row) => `${row.date} ${row.currency} ${row.value}`).sort();
}

const isSoapPost = (request: Received, action: string | undefined) =>
  request.method === 'POST' && request.headers['content-type'] === 'text/xml; charset=utf-8' && request.headers['soapaction'] === action;

test('when Mongolbank is fetched, then the range is POSTed as JSON, the latest as the past week, and the recorded answer lands', async (t) => {
  const answer = more('bom', 'bom-currency-rate-movement-2026-05-19_2026-05-22.json');
  const { base, received } = await bankEndpoint(t, (request) => {
    const ok = request.method === 'POST' && request.url === '/en/currency-rate-movement/data' && request.headers['content-type'] === 'application/json';
    return ok ? { body: answer } : refused;
  });
  const stores = store(t);
  const report = await runRangeIngestion(stores.rates, askingAt(adapter('bom'), base), { from: '2026-05-19', to: '2026-05-22' });
  assert.equal(report?.days, 4);
  assert.deepEqual(JSON.parse(received[0]!.body), { startDate: '2026-05-19', endDate: '2026-05-22' });
  assert.deepEqual(await storedRows(stores, 'bom'), await parsedRows('bom', recorded('bom')));
  assert.ok((await storedRows(stores, 'bom')).includes('2026-05-22 USD 3576.42'), '"USD":"3,576.42"');

  // `ingest --source bom --url …`: the latest request, sent there.
  await runIngestion(stores.rates, adapter('bom'), { url: `${base}/en/currency-rate-movement/data` });
  const week = recentDays(7);
  assert.deepEqual(JSON.parse(received[1]!.body), { startDate: week.from, endDate: week.to });
  assert.equal(received.length, 2);
});

test('when the Central Bank of Armenia is fetched, then each SOAP call carries its action and arguments, and the recorded answers land', async (t) => {
  const { base, received } = await bankEndpoint(t, (request) => {
    if (request.url !== '/exchangerates.asmx') return refused;
    const { name, element } = soapOperation(request.body);
    if (element['@_xmlns'] !== 'http://www.cba.am/' || !isSoapPost(request, `"http://www.cba.am/${name}"`)) return refused;
    if (name === 'ExchangeRatesLatest') return { body: more('cba', 'cba-latest-2026-03-18.xml') };
    if (name === 'ExchangeRatesByDateRangeByISO') return { body: more('cba', 'cba-range-by-iso-2026-03-02_2026-03-18.xml') };
    return refused;
  });
  const stores = store(t);
  const cba = askingAt(adapter('cba'), base);
  await runIngestion(stores.rates, cba);
  assert.equal(soapOperation(received[0]!.body).name, 'ExchangeRatesLatest');
  await runRangeIngestion(stores.rates, cba, { from: '2026-03-02', to: '2026-03-18' });
  const range = soapOperation(received[1]!.body).element;
  assert.deepEqual(
    { codes: String(range['ISOCodes']).split(',').sort(), from: range['DateFrom'], to: range['DateTo'] },
    { codes: adapter('cba').codes.filter((code) => code !== 'AMD'), from: '2026-03-02', to: '2026-03-18' },
  );
  assert.deepEqual(await storedRows(stores, 'cba'), await parsedRows('cba', recorded('cba')));
  assert.ok((await storedRows(stores, 'cba')).includes('2026-03-18 USD 377.39'), '<ISO>USD</ISO><Amount>1</Amount><Rate>377.39</Rate>');
  assert.equal(received.length, 2);
});

test('when a range of the Central Bank of Armenia spans years, then it is asked a year a call, each day once', () => {
  const calls = sourceRequests(adapter('cba'), { from: '2024-02-01', to: '2026-03-18' }).map(({ body }) => soapOperation(body!).element);
  assert.deepEqual(calls.map((call) => [call['DateFrom'], call['DateTo']]), [
    ['2024-02-01', '2025-01-30'],
    ['2025-01-31', '2026-01-30'],
    ['2026-01-31', '2026-03-18'],
  ]);
});

test('when the Banco Central del Uruguay is fetched, then one SOAP Execute is POSTed per currency, by its BCU number, and every recorded answer lands', async (t) => {
  // The endpoint's answers by the currency number each recorded body itself carries (<Moneda>, an xs:int: 500 for "0500").
  const byMoneda = new Map(recorded('bcu').map((name) => [Number(/<Moneda>(\d+)<\/Moneda>/.exec(more('bcu', name).toString('utf8'))![1]), name]));
  assert.equal(byMoneda.size, 27);
  const { base, received } = await bankEndpoint(t, (request) => {
    if (request.url !== '/wscotizaciones/servlet/awsbcucotizaciones' || !isSoapPost(request, undefined)) return refused;
    const { name, element } = soapOperation(request.body);
    const entrada = element['Entrada'] as { Moneda: { item: string }; Grupo: string };
    if (name !== 'wsbcucotizaciones.Execute' || element['@_xmlns'] !== 'Cotiza' || entrada.Grupo !== '0') return refused;
    const file = byMoneda.get(Number(entrada.Moneda.item));
    return file === undefined ? { status: 404, body: '' } : { body: more('bcu', file) };
  });
  const stores = store(t);
  await runRangeIngestion(stores.rates, askingAt(adapter('bcu'), base), { from: '2026-03-27', to: '2026-03-31' });
  assert.equal(received.length, 27);
  const asked = received.map(({ body }) => soapOperation(body).element['Entrada'] as { Moneda: { item: string }; FechaDesde: string; FechaHasta: string });
  assert.deepEqual(asked.map(({ Moneda }) => Number(Moneda.item)).sort(), [...byMoneda.keys()].sort(), 'each recorded currency asked once');
  assert.deepEqual(new Set(asked.map(({ FechaDesde, FechaHasta }) => `${FechaDesde}..${FechaHasta}`)), new Set(['2026-03-27..2026-03-31']));
  assert.deepEqual(await storedRows(stores, 'bcu'), await parsedRows('bcu', recorded('bcu')));
  assert.ok((await storedRows(stores, 'bcu')).includes('2026-03-27 USD 40.56'), '<CodigoISO>DLS.</CodigoISO> <TCC>40.560000</TCC>');

  // `ingest --source bcu --url …`: the latest week's 27 calls, each sent there.
  await runIngestion(stores.rates, adapter('bcu'), { url: `${base}/wscotizaciones/servlet/awsbcucotizaciones` });
  const week = recentDays(7);
  const latest = received.slice(27).map(({ body }) => soapOperation(body).element['Entrada'] as { FechaDesde: string; FechaHasta: string });
  assert.equal(latest.length, 27);
  assert.deepEqual(new Set(latest.map(({ FechaDesde, FechaHasta }) => `${FechaDesde}..${FechaHasta}`)), new Set([`${week.from}..${week.to}`]));
});

test('when Bank Negara Malaysia is fetched, then every request asks for its media type, which the API insists on', async (t) => {
  const { base, received } = await bankEndpoint(t, (request) => {
    if (request.method !== 'GET' || request.headers['accept'] !== 'application/vnd.BNM.API.v1+json') return { status: 406, body: '{"message":"Not Acceptable"}' };
    if (request.url === '/public/exchange-rate?session=0900') return { body: more('bnm', 'bnm-latest-0900-2026-03-19.json') };
    const month = /^\/public\/exchange-rate\/([A-Z]{3})\/year\/2026\/month\/3\?session=0900$/.exec(request.url);
    return month ? { body: more('bnm', `bnm-${month[1]!}-2026-03-0900.json`) } : { status: 404, body: '' };
  });
  const stores = store(t);
  const bnm = askingAt(adapter('bnm'), base);
  await runIngestion(stores.rates, bnm);
  await runRangeIngestion(stores.rates, bnm, { from: '2026-03-02', to: '2026-03-19' });
  assert.equal(received.length, 1 + 27);
  assert.deepEqual(await storedRows(stores, 'bnm'), await parsedRows('bnm', recorded('bnm')));

  // Without the header (as the adapter fetched before), the API's refusal stops the run, naming it.
  const bare = { ...bnm, requests: undefined, urls: () => [`${base}/public/exchange-rate?session=0900`] };
  await assert.rejects(runIngestion(stores.rates, bare), /the server answered 406/);
});

test('when the Magyar Nemzeti Bank is fetched, then GetExchangeRates is a SOAP call with its action, range and currencies, and the recorded answer lands', async (t) => {
  const { base, received } = await bankEndpoint(t, (request) => {
    const { name, element } = soapOperation(request.body);
    const ok = isSoapPost(request, `"http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/${name}"`) && element['@_xmlns'] === 'http://www.mnb.hu/webservices/';
    return ok && name === 'GetExchangeRates' ? { body: more('mnb', 'mnb-exchange-rates-2025-03-24_2025-03-28.xml') } : refused;
  });
  const stores = store(t);
  await runRangeIngestion(stores.rates, askingAt(adapter('mnb'), base), { from: '2025-03-24', to: '2025-03-28' });
  const call = soapOperation(received[0]!.body).element;
  assert.deepEqual([call['startDate'], call['endDate']], ['2025-03-24', '2025-03-28']);
  assert.deepEqual(String(call['currencyNames']).split(','), adapter('mnb').codes.filter((code) => code !== 'HUF'));
  assert.deepEqual(await storedRows(stores, 'mnb'), await parsedRows('mnb', recorded('mnb')));
  assert.equal(soapOperation(adapter('mnb').requests!()[0]!.body!).name, 'GetCurrentExchangeRates', 'the latest is the current rates');
});
