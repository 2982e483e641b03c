import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HISTORY_ZIP, historyCsvText } from '../helpers/ecb-history-csv.js';
import { RECORDED } from '../helpers/recorded-files.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * Names (DECISIONS §5, §9, §15): every code an answer can hold is listed by /api/v1/currencies with
 * an English name of its own (never its bare code), current codes with SOURCES=all, metals and XDR,
 * and the retired codes of old days the operator serves with CURRENCIES.
 */

type Currency = { code: string; name: string; symbol: string };

async function currencies(get: (path: string) => Promise<Response>): Promise<Map<string, Currency>> {
  const answer = await read(await get('/api/v1/currencies'));
  assert.equal(answer.status, 200);
  return new Map((answer.json as Currency[]).map((currency) => [currency.code, currency]));
}

function assertNamed(listed: Map<string, Currency>, codes: Iterable<string>, where: string): void {
  const unnamed = [...codes].filter((code) => !listed.has(code) || listed.get(code)!.name === code || listed.get(code)!.name === '');
  assert.deepEqual(unnamed, [], `${where}: every code is listed with a name of its own`);
}

/** The codes of a CSV range answer: its header, `date,CODE,…`, the union over every day. */
async function codesOfRange(get: (path: string, init?: { headers: Record<string, string> }) => Promise<Response>, path: string): Promise<string[]> {
  const answer = await read(await get(path, { headers: { accept: 'text/csv' } }));
  assert.equal(answer.status, 200, path);
  return answer.text.slice(0, answer.text.indexOf('\r\n')).split(',').slice(1);
}

test('when SOURCES=all serves every recorded file, then every code of every day is named, metals and XDR too', async (t) => {
  const server = await startTestApp(t, { ingestSources: [...RECORDED], env: { SOURCES: 'all' } });
  const get = (path: string, init?: { headers: Record<string, string> }) => server.get(path, init);
  const listed = await currencies(get);
  assert.equal(listed.size, 160);
  assertNamed(listed, listed.keys(), '/api/v1/currencies');

  // The whole stored history, every source's days: the codes any rates answer can hold.
  const served = await codesOfRange(get, '/api/v1/rates/1999-01-04..');
  assert.ok(served.length >= 160, `${served.length} codes over the whole history`);
  assertNamed(listed, served, 'the whole-history range');

  const names = Object.fromEntries([...listed.values()].map(({ code, name }) => [code, name]));
  assert.deepEqual(
    { XAU: names['XAU'], XAG: names['XAG'], XPT: names['XPT'], XPD: names['XPD'], XDR: names['XDR'] },
    { XAU: 'Gold', XAG: 'Silver', XPT: 'Platinum', XPD: 'Palladium', XDR: 'Special Drawing Rights' },
  );
  assert.deepEqual(
    { USD: names['USD'], KPW: names['KPW'], BTN: names['BTN'], KYD: names['KYD'] },
    { USD: 'US Dollar', KPW: 'North Korean Won', BTN: 'Bhutanese Ngultrum', KYD: 'Cayman Islands Dollar' },
  );
});

test('when CURRENCIES serves the ECB history\'s every code, then its retired codes are named and answer on their old days', async (t) => {
  const header = (await historyCsvText()).split('\n', 1)[0]!;
  const codes = header.split(',').slice(1).filter((code) => code !== '');
  assert.ok(codes.includes('CYP') && codes.includes('TRL'), 'the history holds retired codes');
  const server = await startTestApp(t, { ingest: [HISTORY_ZIP], env: { CURRENCIES: ['EUR', ...codes].join(',') } });
  const get = (path: string) => server.get(path);
  const listed = await currencies(get);
  assertNamed(listed, listed.keys(), '/api/v1/currencies');

  // 2000-01-03: the ECB still quoted the currencies the euro and the redenominations later replaced.
  const old = (await read(await get('/api/v1/rates/2000-01-03'))).json as { rates: Record<string, string> };
  for (const code of ['CYP', 'EEK', 'LTL', 'LVL', 'MTL', 'ROL', 'SIT', 'SKK', 'TRL']) assert.ok(old.rates[code] !== undefined, `${code} has a rate on 2000-01-03`);
  assertNamed(listed, Object.keys(old.rates), '2000-01-03');
  const names = Object.fromEntries(['CYP', 'EEK', 'LTL', 'LVL', 'MTL', 'ROL', 'SIT', 'SKK', 'TRL'].map((code) => [code, listed.get(code)!.name]));
  assert.deepEqual(names, {
    CYP: 'Cypriot Pound',
    EEK: 'Estonian Kroon',
    LTL: 'Lithuanian Litas',
    LVL: 'Latvian Lats',
    MTL: 'Maltese Lira',
    ROL: 'Romanian Leu (1952–2006)',
    SIT: 'Slovenian Tolar',
    SKK: 'Slovak Koruna',
    TRL: 'Turkish Lira (1922–2005)',
  });
});

test('when CURRENCIES lists the retired codes the banks\' recorded files hold, then each is named', async (t) => {
  // Seen in the recorded bodies (HKMA's null legacy columns, BCRA, NBKR, the sbi series, …).
  const retired = 'ATS BEF BYR DEM ESP FIM FRF GRD HRK IEP ITL LUF MRO MXP NLG PTE RUR SLL STD VEB VEF ZMK'.split(' ');
  const server = await startTestApp(t, { env: { CURRENCIES: ['EUR', ...retired].join(',') } });
  const listed = await currencies((path) => server.get(path));
  assert.deepEqual([...listed.keys()], ['EUR', ...retired].sort());
  assertNamed(listed, retired, 'retired codes');
  assert.deepEqual(
    { DEM: listed.get('DEM')!.name, BYR: listed.get('BYR')!.name, GRD: listed.get('GRD')!.name },
    { DEM: 'German Mark', BYR: 'Belarusian Ruble (2000–2016)', GRD: 'Greek Drachma' },
  );
});
