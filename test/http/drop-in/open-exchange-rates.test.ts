import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answers, expectText, startDropInServer, usedBy } from '../../helpers/drop-in-expect.js';
import { read } from '../../helpers/test-server.js';

/**
 * Open Exchange Rates' paths (DECISIONS §16) over a socket, byte for byte; values from hist.csv
 * worked out by hand as in frankfurter-v1.test.ts. `timestamp` is midnight UTC of the rates' day.
 */

const PREAMBLE =
  '"disclaimer":"Reference rates of the central banks this service reads (GET /api/v1/sources), exact to 6 places; no warranty.",' +
  '"license":"Published by those banks under their own terms; served by this self-hosted currency-rates instance."';
const T_0413 = Date.UTC(2026, 3, 13) / 1000;
const T_0410 = Date.UTC(2026, 3, 10) / 1000;
const USD_0413 = '{"CHF":0.790996,"EUR":0.855871,"GBP":0.745104,"HUF":314.019172,"JPY":159.833961,"USD":1}';

test('Open Exchange Rates rate sets, time series and conversion', async (t) => {
  const server = await startDropInServer(t);
  const cases: [string, string, string][] = [
    ['latest.json: in US dollars by default, the base among the rates', '/api/latest.json', `{${PREAMBLE},"timestamp":${T_0413},"base":"USD","rates":${USD_0413}}`],
    ['latest.json with base and symbols', '/api/latest.json?base=gbp&symbols=USD,EUR', `{${PREAMBLE},"timestamp":${T_0413},"base":"GBP","rates":{"EUR":1.14866,"USD":1.342094}}`],
    ['latest.json with precision=2', '/api/latest.json?symbols=JPY&precision=2', `{${PREAMBLE},"timestamp":${T_0413},"base":"USD","rates":{"JPY":159.83}}`],
    [
      'historical/2026-04-10.json',
      '/api/historical/2026-04-10.json?symbols=EUR,JPY',
      // 1 / 1.1711 = 0.85389804…; 186.43 / 1.1711 = 159.19221246…
      `{${PREAMBLE},"timestamp":${T_0410},"base":"USD","rates":{"EUR":0.853898,"JPY":159.192212}}`,
    ],
    ['historical on a Sunday: the Friday before, as its timestamp shows', '/api/historical/2026-04-12.json?base=EUR&symbols=USD', `{${PREAMBLE},"timestamp":${T_0410},"base":"EUR","rates":{"USD":1.1711}}`],
    [
      'time-series.json',
      '/api/time-series.json?start=2026-04-10&end=2026-04-13&symbols=EUR',
      `{${PREAMBLE},"start_date":"2026-04-10","end_date":"2026-04-13","base":"USD","rates":{"2026-04-10":{"EUR":0.853898},"2026-04-13":{"EUR":0.855871}}}`,
    ],
    [
      'time-series.json with base, symbols and precision=1',
      '/api/time-series.json?start=2025-12-31&end=2026-04-10&base=EUR&symbols=BGN,USD&precision=1',
      `{${PREAMBLE},"start_date":"2025-12-31","end_date":"2026-04-10","base":"EUR","rates":{"2025-12-31":{"BGN":2,"USD":1.2},"2026-04-10":{"USD":1.2}}}`,
    ],
    [
      'convert/19999.95/GBP/EUR',
      '/api/convert/19999.95/GBP/EUR',
      // 19999.95 / 0.87058 = 22973.13285396…; 1 / 0.87058 = 1.14866181…
      `{${PREAMBLE},"request":{"query":"/convert/19999.95/GBP/EUR","amount":19999.95,"from":"GBP","to":"EUR"},"meta":{"timestamp":${T_0413},"rate":1.14866},"response":22973.132854}`,
    ],
    [
      'convert with lower-case codes and precision=3',
      '/api/convert/100/usd/jpy?precision=3',
      `{${PREAMBLE},"request":{"query":"/convert/100/USD/JPY","amount":100,"from":"USD","to":"JPY"},"meta":{"timestamp":${T_0413},"rate":159.834},"response":15983.396}`,
    ],
  ];
  for (const [what, path, body] of cases) {
    await t.test(`when ${what} is asked, then OXR's shape with the exact values`, () => answers(server.get(path), 200, body, path));
  }
});

test('Open Exchange Rates usage.json and currencies.json', async (t) => {
  const server = await startDropInServer(t, { env: { QUOTA_LIMIT: '500' } });

  await t.test('when usage.json is asked, then it counts itself and agrees with /api/v1/usage', async () => {
    const before = await usedBy(server.url, server.key);
    const answer = await read(await server.get('/api/usage.json'));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, {
      status: 200,
      data: {
        app_id: '[redacted]',
        status: 'active',
        plan: {
          name: 'currency-rates',
          quota: '500 requests per 30 days',
          update_frequency: 'daily',
          features: { base: true, symbols: true, experimental: false, 'time-series': true, convert: true },
        },
        usage: { requests: before + 1, requests_quota: 500, requests_remaining: 500 - before - 1, days_elapsed: 0, days_remaining: 30, daily_average: before + 1 },
      },
    });
    assert.equal(answer.headers.get('x-ratelimit-remaining'), String(500 - before - 1));
  });

  await t.test('when currencies.json is asked without any key, then it answers and counts nothing', async () => {
    const before = await usedBy(server.url, server.key);
    await expectText(
      server.get('/api/currencies.json', { auth: false }),
      200,
      '{"BGN":"Bulgarian Lev","CHF":"Swiss Franc","EUR":"Euro","GBP":"British Pound","HUF":"Hungarian Forint","JPY":"Japanese Yen","USD":"US Dollar"}',
    );
    await expectText(server.get('/api/currencies.json'), 200, (await read(await server.get('/api/currencies.json', { auth: false }))).text, 'with a key too');
    assert.equal(await usedBy(server.url, server.key), before + 1, 'only the usage request itself was counted');
  });
});

test('Open Exchange Rates errors: {"error":true,"status","message":code,"description":our wording}', async (t) => {
  const server = await startDropInServer(t);
  const error = (status: number, message: string, description: string) => JSON.stringify({ error: true, status, message, description });
  const cases: [string, string, number, string, string][] = [
    ['an untracked base', '/api/latest.json?base=XYZ', 400, 'invalid_base', 'Unknown currency: XYZ'],
    ['a malformed base', '/api/latest.json?base=US', 400, 'invalid_base', 'base must be a 3-letter currency code'],
    ['an untracked symbol', '/api/latest.json?symbols=EUR,XYZ', 400, 'invalid_request', 'Unknown currency: XYZ'],
    ['malformed symbols', '/api/latest.json?symbols=EUR;GBP', 400, 'invalid_request', 'symbols must be a comma-separated list of 3-letter currency codes'],
    ['an impossible day', '/api/historical/2026-02-30.json', 400, 'invalid_request', 'date must be a valid calendar date in YYYY-MM-DD format'],
    ['a day before every stored day', '/api/historical/2001-05-06.json', 404, 'not_found', 'No exchange rate data available for 2001-05-06'],
    ['a time series without its end', '/api/time-series.json?start=2026-04-10', 400, 'invalid_request', 'end must be a valid calendar date in YYYY-MM-DD format'],
    ['a time series ending before it starts', '/api/time-series.json?start=2026-04-13&end=2026-04-10', 400, 'invalid_request', 'end must not be before start'],
    ['a time series without data', '/api/time-series.json?start=2001-01-01&end=2001-12-31', 404, 'not_found', 'No exchange rate data available between 2001-01-01 and 2001-12-31'],
    ['a value that is no number', '/api/convert/ten/USD/EUR', 400, 'invalid_request', 'value must be a numeric string'],
    ['a negative value', '/api/convert/-5/USD/EUR', 400, 'invalid_request', 'amount must be a positive number'],
    ['an untracked target', '/api/convert/5/USD/XYZ', 400, 'invalid_request', 'Unknown currency: XYZ'],
  ];
  for (const [what, path, status, code, description] of cases) {
    await t.test(`when ${what} is sent, then ${status} ${code}`, () => answers(server.get(path), status, error(status, code, description), path));
  }
});
