import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { expectJson } from '../helpers/http-expect.js';
import { sourceAdapter } from '../../src/ingest/sources/registry.js';
import { divide, formatHalfUp6, parseDecimal, type Rational } from '../helpers/oracle.js';
import { PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { ALL_RECORDED, RECORDED, REFUSED_RECORDED } from '../helpers/recorded-files.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * SOURCES=all (DECISIONS §15) as an operator runs it: every recorded file of every bank, the ECB's
 * included, in one store; every code served, each weekday Banca d'Italia published quoting all it
 * quotes, and the rule "ECB, then the code's home bank, then by breadth" checked against the banks'
 * own text with the BigInt oracle, byte for byte.
 */

const ONE: Rational = { num: 1n, den: 1n };
const MORE = join(PROVIDER_FIXTURES, 'more');

/** Banca d'Italia's CSV: `…,ISO Code,UIC Code,Rate,Rate convention,Reference date`, units of the code per 1 EUR. */
function bdiDays(): Map<string, Map<string, Rational>> {
  const days = new Map<string, Map<string, Rational>>();
  for (const name of readdirSync(join(MORE, 'bdi'))) {
    for (const [, code, rate, date] of readFileSync(join(MORE, 'bdi', name), 'utf8').matchAll(/,([A-Z]{3}),\d+,([0-9.]+),Foreign currency amount for 1 Euro\.,(\d{4}-\d\d-\d\d)/g)) {
      if (!days.has(date!)) days.set(date!, new Map());
      days.get(date!)!.set(code!, parseDecimal(rate!));
    }
  }
  return days;
}

/** The National Bank of Kazakhstan's XML of one day: `<date>DD.MM.YYYY</date>`, KZT per `quant` units of `title`. */
function nbkDay(name: string): { date: string; kzt: (code: string) => Rational } {
  const text = readFileSync(join(MORE, 'nbk', name), 'utf8');
  const date = /<date>(\d\d)\.(\d\d)\.(\d{4})<\/date>/.exec(text)!.slice(1).reverse().join('-');
  return {
    date,
    kzt: (code) => {
      const item = new RegExp(`<title>${code}</title>\\s*<description>([0-9.]+)</description>\\s*<quant>(\\d+)</quant>`).exec(text);
      assert.ok(item, `nbk ${date} quotes ${code}`);
      return divide(parseDecimal(item[1]!), parseDecimal(item[2]!));
    },
  };
}

/** The Central Bank of Uzbekistan's JSON of one day: UZS per `Nominal` units of `Ccy`. */
function cbuValue(name: string, code: string): Rational {
  const item = new RegExp(`"Ccy":"${code}"[^}]*?"Nominal":"(\\d+)","Rate":"([0-9.]+)"`).exec(readFileSync(join(MORE, 'cbu', name), 'utf8'));
  assert.ok(item, `cbu ${name} quotes ${code}`);
  return divide(parseDecimal(item[2]!), parseDecimal(item[1]!));
}

const ratesOn = async (get: (path: string) => Promise<Response>, date: string, symbols: string) =>
  ((await read(await get(`/api/v1/rates/${date}?symbols=${symbols}`))).json as { rates: Record<string, string> }).rates;

test('when SOURCES=all serves every recorded file, then 160 codes are served, bdi\'s every day, each code from the bank the priority names', async (t) => {
  const refused: string[] = [];
  for (const { source, file } of ALL_RECORDED) {
    if (!REFUSED_RECORDED.includes(basename(file))) continue;
    await assert.rejects(sourceAdapter(source)!.parse(readFileSync(file), file), `${file} is refused`);
    refused.push(basename(file));
  }
  assert.deepEqual(refused.sort(), REFUSED_RECORDED, 'each refused file is recorded');
  assert.equal(RECORDED.length, 146, 'every other recorded file is ingested (the start stops on one refused)');
  const server = await startTestApp(t, { ingestSources: RECORDED, env: { SOURCES: 'all' } });
  const get = (path: string) => server.get(path);

  const currencies = ((await read(await get('/api/v1/currencies'))).json as { code: string }[]).map(({ code }) => code);
  assert.ok(currencies.length >= 160, `${currencies.length} codes served`);
  assert.equal(currencies.length, 160, 'the union of the 34 banks\' codes');

  // Every code Banca d'Italia quotes has a rate on each weekday it published, its own where no bank ranks before it.
  const bdi = bdiDays();
  assert.deepEqual([...bdi.keys()].sort(), ['2026-02-09', '2026-02-10', '2026-02-11']);
  for (const [date, values] of bdi) {
    const served = ((await read(await get(`/api/v1/rates/${date}`))).json as { rates: Record<string, string> }).rates;
    const missing = [...values.keys()].filter((code) => served[code] === undefined);
    assert.deepEqual(missing, [], `${date}: every code bdi quotes is served`);
  }

  // A code the ECB quotes comes from the ECB, though its home bank (CNB) published that day too.
  const ecbDay = parseHistoryCsv(await historyCsvText()).get('2026-02-10')!;
  const bdiDay = bdi.get('2026-02-10')!;
  assert.deepEqual(await ratesOn(get, '2026-02-10', 'CZK,USD'), {
    CZK: formatHalfUp6(parseDecimal(ecbDay['CZK']!)),
    USD: formatHalfUp6(parseDecimal(ecbDay['USD']!)),
  });
  const cnbEur = /"currencyCode":"EUR","amount":1,"validFor":"2026-02-10","rate":([0-9.]+)/.exec(readFileSync(join(PROVIDER_FIXTURES, 'cnb-daily-year-2026.json'), 'utf8'))!;
  assert.notEqual(formatHalfUp6(parseDecimal(cnbEur[1]!)), formatHalfUp6(parseDecimal(ecbDay['CZK']!)), 'the CNB\'s own CZK differs: the ECB\'s is served');

  // A code only bdi has (no other bank, no ECB): bdi's own figure, units per 1 EUR.
  assert.deepEqual(await ratesOn(get, '2026-02-10', 'KYD,BTN'), { BTN: formatHalfUp6(bdiDay.get('BTN')!), KYD: formatHalfUp6(bdiDay.get('KYD')!) });

  // KZT from its home bank on each day it published, though cbu (broader, ahead of nbk in the list) quotes both KZT and EUR.
  for (const [name, cbu] of [
    ['nbk-get-rates-2026-04-01.xml', 'cbu-all-2026-04-01.json'],
    ['nbk-get-rates-2026-04-02.xml', 'cbu-all-2026-04-02.json'],
    ['nbk-get-rates-2026-04-03.xml', 'cbu-all-2026-04-03.json'],
  ] as const) {
    const nbk = nbkDay(name);
    const home = formatHalfUp6(divide(nbk.kzt('EUR'), ONE));
    const foreign = formatHalfUp6(divide(cbuValue(cbu, 'EUR'), cbuValue(cbu, 'KZT')));
    assert.notEqual(home, foreign, `${nbk.date}: the two banks differ, so the test tells them apart`);
    await expectJson(get(`/api/v1/rates/${nbk.date}?symbols=KZT`), 200, { base: 'EUR', date: nbk.date, rates: { KZT: home } }, nbk.date);
  }

  // /sources lists all 34, the ECB first, then by breadth.
  const sources = (await read(await get('/api/v1/sources'))).json as { id: string; country: string | null; codes: string[] }[];
  assert.equal(sources.length, 34);
  assert.deepEqual(sources.slice(0, 3).map(({ id }) => id), ['ecb', 'bdi', 'nbp']);
  assert.deepEqual(sources.filter(({ country }) => country === null).map(({ id }) => id), ['imf']);
  assert.deepEqual(sources.filter(({ codes }) => codes.length === 0).map(({ id }) => id), [], 'every bank has stored days');
});
