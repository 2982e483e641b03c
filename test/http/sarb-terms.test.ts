import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ECB_FIXTURES, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { expectJson } from '../helpers/http-expect.js';
import { MORE_FILES_2, MORE_FIXTURES_2, moreText } from '../helpers/more-provider-fixtures-2.js';
import { startTestApp } from '../helpers/test-server.js';

/**
 * The SARB writes its figures two ways within one source: "Rand per US Dollar" (ZAR per 1 USD)
 * beside "Japan: Yen per Rand" (JPY per 1 ZAR). Each is stored as written and divided exactly
 * when served (DECISIONS §9, §15). The recorded values of 2026-03-27, read from the files:
 *   USD  Rand per US Dollar         17.1302   GBP  Rand per British Pound  22.8173
 *   EUR  Rand per Euro              19.7408   KES  Kenya: Schilling per Rand  7.5890
 *   JPY  Japan: Yen per Rand         9.3324
 * Every expected figure below is worked by hand from these, rounded once, half up, to 6 places.
 * Read the wrong way round, a per-rand figure would give 19.7408 / 7.589 = 2.60… KES per EUR.
 */

const DAY = '2026-03-27';
const { all } = MORE_FILES_2.sarb;

test('the recorded figures the expectations are worked from', () => {
  const value = (code: string) => {
    const name = all.find((file) => file.includes(`-${code}-`))!;
    return new RegExp(`"Period":"${DAY}T00:00:00","Timeseries":"([^"]*)",[^}]*"Value":([0-9.]+)`).exec(moreText(name))!.slice(1).join(' = ');
  };
  assert.deepEqual(['USD', 'GBP', 'EUR', 'KES', 'JPY'].map(value), [
    'Rand per US Dollar = 17.1302', 'Rand per British Pound = 22.8173', 'Rand per Euro = 19.7408',
    'Kenya: Schilling per Rand = 7.5890', 'Japan: Yen per Rand = 9.3324',
  ]);
});

test('when the SARB is asked alone, then rand-per-unit and per-rand codes are each read their own way, exactly', async (t) => {
  const server = await startTestApp(t, {
    ingest: [`${ECB_FIXTURES}eurofxref-hist.zip`],
    ingestSources: all.map((name) => ({ source: 'sarb', file: join(MORE_FIXTURES_2, name) })),
    env: { SOURCES: 'ecb,sarb' },
  });
  const get = (path: string) => server.get(path);

  // Per 1 ZAR: USD 1 / 17.1302 = 0.05837643…, GBP 1 / 22.8173 = 0.04382639…; KES 7.589 and JPY 9.3324 as written.
  await expectJson(get(`/api/v1/rates/${DAY}?source=sarb&base=ZAR&symbols=USD,GBP,KES,JPY`), 200, {
    base: 'ZAR', date: DAY, rates: { GBP: '0.043826', JPY: '9.332400', KES: '7.589000', USD: '0.058376' },
  });

  // Per 1 EUR: USD 19.7408 / 17.1302 = 1.15239752…, GBP 19.7408 / 22.8173 = 0.86516809…,
  // KES 7.589 × 19.7408 = 149.8129312, JPY 9.3324 × 19.7408 = 184.22904192, ZAR 19.7408.
  await expectJson(get(`/api/v1/rates/${DAY}?source=sarb&symbols=USD,GBP,KES,JPY,ZAR`), 200, {
    base: 'EUR', date: DAY, rates: { GBP: '0.865168', JPY: '184.229042', KES: '149.812931', USD: '1.152398', ZAR: '19.740800' },
  });
  // The product is exact: 149.8129312 to the 12th place.
  await expectJson(get(`/api/v1/rates/${DAY}?source=sarb&symbols=KES&precision=12`), 200, { base: 'EUR', date: DAY, rates: { KES: '149.812931200000' } });

  // Per 1 USD: KES 7.589 × 17.1302 = 130.0010878, JPY 9.3324 × 17.1302 = 159.86587848, EUR 17.1302 / 19.7408 = 0.86775611….
  await expectJson(get(`/api/v1/rates/${DAY}?source=sarb&base=USD&symbols=EUR,JPY,KES`), 200, {
    base: 'USD', date: DAY, rates: { EUR: '0.867756', JPY: '159.865878', KES: '130.001088' },
  });

  // Two per-rand codes: 1000 KES in JPY = 1000 × 9.3324 / 7.589 = 1229.72723679…; rate 1.22972723….
  await expectJson(get(`/api/v1/convert?source=sarb&from=KES&to=JPY&amount=1000&date=${DAY}`), 200, {
    from: 'KES', to: 'JPY', amount: '1000', result: '1229.727237', rate: '1.229727', date: DAY,
  });
  // One of each: 250 GBP in KES = 250 × 22.8173 × 7.589 = 43290.122425; rate 22.8173 × 7.589 = 173.1604897.
  await expectJson(get(`/api/v1/convert?source=sarb&from=GBP&to=KES&amount=250&date=${DAY}`), 200, {
    from: 'GBP', to: 'KES', amount: '250', result: '43290.122425', rate: '173.160490', date: DAY,
  });

  // Blended, the ECB first: its own JPY and ZAR that day (the history's row "2026-03-27,1.1517,184.16,…,19.7984,"),
  // and the SARB's KES, which the ECB does not quote, per 1 EUR as above.
  const ecbDay = parseHistoryCsv(await historyCsvText()).get(DAY)!;
  assert.deepEqual([ecbDay['JPY'], ecbDay['ZAR'], ecbDay['KES']], ['184.16', '19.7984', undefined]);
  await expectJson(get(`/api/v1/rates/${DAY}?symbols=JPY,KES,ZAR`), 200, { base: 'EUR', date: DAY, rates: { JPY: '184.160000', KES: '149.812931', ZAR: '19.798400' } });
});
