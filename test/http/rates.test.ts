import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { expectError, expectJson, MSG, noDataOn, unknownCurrency } from '../helpers/http-expect.js';
import { FIXTURES, read, startTestApp } from '../helpers/test-server.js';

/**
 * Rate sets of /rates/latest and /rates/{date} (SPEC §4, DECISIONS §3), byte for byte. Expected
 * values are the fixture's per-EUR quotes (test/fixtures/README.md) worked out by hand: X in base
 * B = rate(X)/rate(B), 6 places, half-up. Headers (ETag, HEAD, CORS) are in rates-headers.test.ts.
 */

const V1 = '/api/v1';

// hist.csv, 2026-04-13 (BGN is N/A from 2026 on).
const EUR_0413 = {
  base: 'EUR',
  date: '2026-04-13',
  rates: { CHF: '0.924200', EUR: '1.000000', GBP: '0.870580', HUF: '366.900000', JPY: '186.750000', USD: '1.168400' },
};
const USD_0413 = {
  base: 'USD',
  date: '2026-04-13',
  rates: {
    CHF: '0.790996', // 0.9242 / 1.1684 = 0.79099623…
    EUR: '0.855871', // 1 / 1.1684 = 0.85587127…
    GBP: '0.745104', // 0.87058 / 1.1684 = 0.74510441…
    HUF: '314.019172', // 366.9 / 1.1684 = 314.01917151…
    JPY: '159.833961', // 186.75 / 1.1684 = 159.83396097…
    USD: '1.000000',
  },
};
// hist.csv, 2025-12-31: BGN's last day.
const BGN_1231 = {
  base: 'BGN',
  date: '2025-12-31',
  rates: {
    BGN: '1.000000',
    CHF: '0.476225', // 0.9314 / 1.9558 = 0.47622456…
    EUR: '0.511300', // 1 / 1.9558 = 0.51129972… (rounds up into 0.511300)
    GBP: '0.446160', // 0.8726 / 1.9558 = 0.44616013…
    HUF: '196.927089', // 385.15 / 1.9558 = 196.92708865…
    JPY: '94.125166', // 184.09 / 1.9558 = 94.12516617…
    USD: '0.600777', // 1.175 / 1.9558 = 0.60077717…
  },
};

test('rate sets from hist.csv', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const cases: [string, string, unknown][] = [
    ['latest is asked', '/rates/latest', EUR_0413],
    ['latest is asked with base=usd', '/rates/latest?base=usd', USD_0413],
    ['2026-04-13 is asked with base=USD', '/rates/2026-04-13?base=USD', USD_0413],
    ['latest is asked with symbols=USD,gbp', '/rates/latest?symbols=USD,gbp', { ...EUR_0413, rates: { GBP: '0.870580', USD: '1.168400' } }],
    [
      'symbols are given out of order (USD,CHF,JPY)',
      '/rates/latest?symbols=USD,CHF,JPY',
      { ...EUR_0413, rates: { CHF: '0.924200', JPY: '186.750000', USD: '1.168400' } },
    ],
    ['symbols leave the base out', '/rates/latest?base=USD&symbols=JPY', { ...USD_0413, rates: { JPY: '159.833961' } }],
    ['symbols name the base', '/rates/latest?base=USD&symbols=usd,EUR', { ...USD_0413, rates: { EUR: '0.855871', USD: '1.000000' } }],
    ['a symbol has no rate that day (BGN on 2026-04-13)', '/rates/2026-04-13?symbols=BGN,USD', { ...EUR_0413, rates: { USD: '1.168400' } }],
    ['the only symbol has no rate that day', '/rates/2026-04-13?symbols=BGN', { ...EUR_0413, rates: {} }],
    ['latest is asked for BGN, which stopped', '/rates/latest?symbols=BGN', { base: 'EUR', date: '2025-12-31', rates: { BGN: '1.955800' } }],
    [
      'latest is asked for BGN and USD',
      '/rates/latest?symbols=USD,BGN',
      { base: 'EUR', date: '2025-12-31', rates: { BGN: '1.955800', USD: '1.175000' } },
    ],
    ['latest is asked with base BGN', '/rates/latest?base=bgn', BGN_1231],
    ['2025-12-31 is asked with base BGN', '/rates/2025-12-31?base=BGN', BGN_1231],
    [
      '2025-12-31 is asked',
      '/rates/2025-12-31',
      {
        base: 'EUR',
        date: '2025-12-31',
        rates: { BGN: '1.955800', CHF: '0.931400', EUR: '1.000000', GBP: '0.872600', HUF: '385.150000', JPY: '184.090000', USD: '1.175000' },
      },
    ],
    [
      // USD was exactly 1 EUR that day: every USD cross rate equals the EUR one.
      '2022-08-31 is asked with base USD (USD quoted as "1")',
      '/rates/2022-08-31?base=USD',
      {
        base: 'USD',
        date: '2022-08-31',
        rates: { BGN: '1.955800', CHF: '0.979600', EUR: '1.000000', GBP: '0.860350', HUF: '402.800000', JPY: '138.720000', USD: '1.000000' },
      },
    ],
    ['2026-04-10 is asked with symbols=CHF', '/rates/2026-04-10?symbols=CHF', { base: 'EUR', date: '2026-04-10', rates: { CHF: '0.924100' } }],
  ];
  for (const [when, path, body] of cases) {
    await t.test(`when ${when}, then the exact rate set`, async () => {
      const answer = await expectJson(server.get(V1 + path), 200, body);
      assert.ok(answer.headers.get('etag'), 'a rate answer carries an ETag');
    });
  }

  const missing: [string, string, string][] = [
    ['a Saturday is asked', '/rates/2026-04-11', noDataOn('2026-04-11')],
    ['a future date is asked', '/rates/2031-01-02?base=USD', noDataOn('2031-01-02')],
    ['2024-02-29 (a valid date) is asked', '/rates/2024-02-29', noDataOn('2024-02-29')],
    ['a day without a rate for the base is asked', '/rates/2026-04-13?base=BGN', noDataOn('2026-04-13')],
    ['the day before the next weekday is asked (no fallback)', '/rates/2026-04-12?symbols=USD', noDataOn('2026-04-12')],
    ['latest is asked for a tracked currency never ingested (SEK)', '/rates/latest?symbols=SEK', MSG.noData],
    ['latest is asked with base SEK', '/rates/latest?base=SEK&symbols=USD', MSG.noData],
    ['latest is asked for USD and SEK, never together', '/rates/latest?symbols=USD,SEK', MSG.noData],
  ];
  for (const [when, path, message] of missing) {
    await t.test(`when ${when}, then 404 "${message}"`, () => expectError(server.get(V1 + path), 404, message).then(() => undefined));
  }
  await t.test('when 2023-02-29 is asked, then 400 (not a calendar date)', () =>
    expectError(server.get(`${V1}/rates/2023-02-29`), 400, [MSG.date]).then(() => undefined),
  );
});

test('currencies stored but not tracked, and the ISK gap (legacy.csv)', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv', 'legacy.csv'] });
  for (const [path, code] of [
    ['/rates/latest?base=RUB', 'RUB'],
    ['/rates/2022-03-01?symbols=USD,hrk', 'HRK'],
    ['/rates/2022-03-01?base=rub&symbols=HRK', 'RUB'],
  ] as const) {
    await t.test(`when ${path} names an untracked currency, then 400 "Unknown currency: ${code}"`, () =>
      expectError(server.get(V1 + path), 400, unknownCurrency(code)).then(() => undefined),
    );
  }
  await t.test('when a day holding HRK and RUB is asked, then they are not listed', () =>
    expectJson(server.get(`${V1}/rates/2022-03-01`), 200, {
      base: 'EUR',
      date: '2022-03-01',
      rates: { BGN: '1.955800', CHF: '1.024700', EUR: '1.000000', GBP: '0.832900', ISK: '142.000000', JPY: '128.150000', USD: '1.116200' },
    }).then(() => undefined),
  );
  await t.test('when a day inside the ISK gap is asked, then ISK is left out', () =>
    expectJson(server.get(`${V1}/rates/2008-12-10`), 200, {
      base: 'EUR',
      date: '2008-12-10',
      rates: { BGN: '1.955800', CHF: '1.558700', EUR: '1.000000', GBP: '0.873250', JPY: '119.770000', USD: '1.292500' },
    }).then(() => undefined),
  );
  await t.test('when a day inside the ISK gap is asked with base ISK, then 404 for that date', () =>
    expectError(server.get(`${V1}/rates/2008-12-10?base=ISK`), 404, noDataOn('2008-12-10')).then(() => undefined),
  );
  await t.test('when latest ISK is asked, then its last day in the data (2022-03-02)', () =>
    expectJson(server.get(`${V1}/rates/latest?symbols=ISK`), 200, { base: 'EUR', date: '2022-03-02', rates: { ISK: '143.000000' } }).then(
      () => undefined,
    ),
  );
});

test('CURRENCIES narrows the tracked set', async (t) => {
  const server = await startTestApp(t, { ingest: ['legacy.csv'], env: { CURRENCIES: 'EUR,USD,GBP,HRK,RUB' } });
  await t.test('when latest is asked, then only tracked currencies are listed', () =>
    expectJson(server.get(`${V1}/rates/latest`), 200, {
      base: 'EUR',
      date: '2022-03-02',
      rates: { EUR: '1.000000', GBP: '0.833160', HRK: '7.574000', USD: '1.110600' },
    }).then(() => undefined),
  );
  await t.test('when latest is asked with base RUB (stopped 2022-03-01), then its last day, cross rates', () =>
    expectJson(server.get(`${V1}/rates/latest?base=RUB`), 200, {
      base: 'RUB',
      date: '2022-03-01',
      rates: {
        EUR: '0.008532', // 1 / 117.201 = 0.00853235…
        GBP: '0.007107', // 0.8329 / 117.201 = 0.00710659…
        HRK: '0.064564', // 7.567 / 117.201 = 0.06456429…
        RUB: '1.000000',
        USD: '0.009524', // 1.1162 / 117.201 = 0.00952380…
      },
    }).then(() => undefined),
  );
  for (const code of ['JPY', 'CHF', 'BGN']) {
    await t.test(`when ${code} (stored, not configured) is asked, then 400 "Unknown currency: ${code}"`, () =>
      expectError(server.get(`${V1}/rates/latest?symbols=${code}`), 400, unknownCurrency(code)).then(() => undefined),
    );
  }
  await t.test('when /currencies is asked, then exactly the configured codes, sorted, with CLDR names', async () => {
    const answer = await read(await server.get(`${V1}/currencies`));
    const list = answer.json as { code: string; name: string; symbol: string }[];
    assert.deepEqual(list.map((c) => c.code), ['EUR', 'GBP', 'HRK', 'RUB', 'USD']);
    assert.deepEqual(list.find((c) => c.code === 'USD'), { code: 'USD', name: 'US Dollar', symbol: '$' });
    assert.deepEqual(list.find((c) => c.code === 'EUR'), { code: 'EUR', name: 'Euro', symbol: '€' });
  });
});

const LATEST_0706 = {
  base: 'EUR',
  date: '2026-07-06',
  rates: { CHF: '0.920100', EUR: '1.000000', GBP: '0.855380', HUF: '353.500000', ISK: '144.000000', JPY: '185.310000', USD: '1.141500' },
};

test('a daily file newer than the history moves "latest" forward', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv', 'daily.xml'] });
  await t.test('when latest is asked, then the daily file day (2026-07-06)', () =>
    expectJson(server.get(`${V1}/rates/latest`), 200, LATEST_0706).then(() => undefined),
  );
  await t.test('when latest BGN is asked, then still its last day', () =>
    expectJson(server.get(`${V1}/rates/latest?symbols=BGN`), 200, { base: 'EUR', date: '2025-12-31', rates: { BGN: '1.955800' } }).then(
      () => undefined,
    ),
  );
});

test('data ingested while the server runs is served within 5 s', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  await expectJson(server.get(`${V1}/rates/latest`), 200, EUR_0413);
  const stores = await openStores(server.storeConfig);
  try {
    await runIngestion(stores.rates, ecb, { file: `${FIXTURES}daily.xml` });
  } finally {
    await stores.close();
  }
  const deadline = Date.now() + 5000;
  let answer = await read(await server.get(`${V1}/rates/latest`));
  while (answer.text === JSON.stringify(EUR_0413) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await read(await server.get(`${V1}/rates/latest`));
  }
  assert.equal(answer.text, JSON.stringify(LATEST_0706));
});

test('/currencies before any ingestion', async (t) => {
  const server = await startTestApp(t);
  await t.test('when /currencies is asked, then the 31 default codes sorted, CLDR names and narrow symbols', async () => {
    const answer = await read(await server.get(`${V1}/currencies`));
    assert.equal(answer.status, 200);
    const list = answer.json as { code: string }[];
    const expected = 'AUD BGN BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD ZAR';
    assert.equal(list.map((c) => c.code).join(' '), expected);
    for (const entry of [
      { code: 'EUR', name: 'Euro', symbol: '€' },
      { code: 'GBP', name: 'British Pound', symbol: '£' },
      { code: 'PLN', name: 'Polish Zloty', symbol: 'zł' },
      { code: 'USD', name: 'US Dollar', symbol: '$' },
    ]) {
      assert.ok(answer.text.includes(JSON.stringify(entry)), `${entry.code} listed as ${JSON.stringify(entry)}`);
    }
  });
});
