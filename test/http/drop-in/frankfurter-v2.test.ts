import { test } from 'node:test';
import { answers, startDropInServer } from '../../helpers/drop-in-expect.js';

/**
 * Frankfurter v2's paths (DECISIONS §16) over a socket, byte for byte; values from hist.csv
 * worked out by hand as in frankfurter-v1.test.ts.
 */

const rate = (date: string, base: string, quote: string, value: string) => `{"date":"${date}","base":"${base}","quote":"${quote}","rate":${value}}`;

test('Frankfurter v2 rates', async (t) => {
  const server = await startDropInServer(t);
  const cases: [string, string, string][] = [
    [
      'latest with base=usd and quotes, the base itself asked for too',
      '/v2/rates?base=usd&quotes=EUR,USD,GBP',
      // 1 / 1.1684 = 0.85587127…; 0.87058 / 1.1684 = 0.74510441…
      `[${rate('2026-04-13', 'USD', 'EUR', '0.855871')},${rate('2026-04-13', 'USD', 'GBP', '0.745104')},${rate('2026-04-13', 'USD', 'USD', '1')}]`,
    ],
    [
      'latest without quotes: every currency, the identity record among them',
      '/v2/rates',
      `[${[
        ['CHF', '0.9242'],
        ['EUR', '1'],
        ['GBP', '0.87058'],
        ['HUF', '366.9'],
        ['JPY', '186.75'],
        ['USD', '1.1684'],
      ]
        .map(([quote, value]) => rate('2026-04-13', 'EUR', quote!, value!))
        .join(',')}]`,
    ],
    ['a date on a Sunday: the Friday before', '/v2/rates?date=2026-04-12&quotes=USD', `[${rate('2026-04-10', 'EUR', 'USD', '1.1711')}]`],
    [
      'a range from..to, by day then quote',
      '/v2/rates?base=GBP&quotes=USD,CHF&from=2026-04-10&to=2026-04-13',
      // 0.9241 / 0.87105 = 1.06090350…; 1.1711 / 0.87105 = 1.34446932…; 0.9242 / 0.87058 = 1.06159112…; 1.1684 / 0.87058 = 1.34209378…
      `[${rate('2026-04-10', 'GBP', 'CHF', '1.060904')},${rate('2026-04-10', 'GBP', 'USD', '1.344469')},` +
        `${rate('2026-04-13', 'GBP', 'CHF', '1.061591')},${rate('2026-04-13', 'GBP', 'USD', '1.342094')}]`,
    ],
    ['a range open at its end', '/v2/rates?quotes=JPY&from=2026-01-01', `[${rate('2026-04-10', 'EUR', 'JPY', '186.43')},${rate('2026-04-13', 'EUR', 'JPY', '186.75')}]`],
    ['a range with days but none quoting what is asked', '/v2/rates?quotes=BGN&from=2026-04-01&to=2026-04-13', '[]'],
    ['precision=3', '/v2/rates?base=USD&quotes=JPY&precision=3', `[${rate('2026-04-13', 'USD', 'JPY', '159.834')}]`],
    ['one pair, latest', '/v2/rate/EUR/USD', rate('2026-04-13', 'EUR', 'USD', '1.1684')],
    ['one pair on a date, lower-case codes', '/v2/rate/usd/jpy?date=2026-04-10', rate('2026-04-10', 'USD', 'JPY', '159.192212')],
    ['one pair on a Saturday', '/v2/rate/EUR/GBP?date=2026-04-11', rate('2026-04-10', 'EUR', 'GBP', '0.87105')],
    ['one pair with precision=1', '/v2/rate/USD/JPY?precision=1', rate('2026-04-13', 'USD', 'JPY', '159.8')],
    ['a currency against itself', '/v2/rate/CHF/CHF?date=2026-04-13', rate('2026-04-13', 'CHF', 'CHF', '1')],
    ['a pair one of which stopped: its last day with both', '/v2/rate/BGN/USD?date=2026-04-13', rate('2025-12-31', 'BGN', 'USD', '0.600777')],
  ];
  for (const [what, path, body] of cases) {
    await t.test(`when ${what}, then the flat records are exact`, () => answers(server.get(path), 200, body, path));
  }
});

test('Frankfurter v2 currencies, one currency and providers', async (t) => {
  const server = await startDropInServer(t);
  const currency = (code: string, name: string, symbol: string, start: string | null, end: string | null) =>
    JSON.stringify({ iso_code: code, iso_numeric: null, name, symbol, start_date: start, end_date: end });

  await t.test('when /v2/currencies is asked, then each served currency with its first and last day', () =>
    answers(
      server.get('/v2/currencies'),
      200,
      `[${[
        currency('BGN', 'Bulgarian Lev', 'BGN', '2022-08-31', '2025-12-31'),
        currency('CHF', 'Swiss Franc', 'CHF', '2022-08-31', '2026-04-13'),
        currency('EUR', 'Euro', '€', '2022-08-31', '2026-04-13'),
        currency('GBP', 'British Pound', '£', '2022-08-31', '2026-04-13'),
        currency('HUF', 'Hungarian Forint', 'Ft', '2022-08-31', '2026-04-13'),
        currency('JPY', 'Japanese Yen', '¥', '2022-08-31', '2026-04-13'),
        currency('USD', 'US Dollar', '$', '2022-08-31', '2026-04-13'),
      ].join(',')}]`,
    ),
  );
  await t.test('when /v2/currency/gbp is asked, then GBP with the sources quoting it', () =>
    answers(
      server.get('/v2/currency/gbp'),
      200,
      '{"iso_code":"GBP","iso_numeric":null,"name":"British Pound","symbol":"£","start_date":"2022-08-31","end_date":"2026-04-13","providers":["ECB"]}',
    ),
  );
  await t.test('when /v2/currency/EUR is asked, then the ECB quotes it as its base', () =>
    answers(
      server.get('/v2/currency/EUR'),
      200,
      '{"iso_code":"EUR","iso_numeric":null,"name":"Euro","symbol":"€","start_date":"2022-08-31","end_date":"2026-04-13","providers":["ECB"]}',
    ),
  );
  await t.test('when a code not served is asked, then 404 in v2\'s shape', () =>
    answers(server.get('/v2/currency/XYZ'), 404, '{"status":404,"message":"Unknown currency: XYZ"}'),
  );
  await t.test('when /v2/providers is asked, then each enabled source as a provider', () =>
    answers(
      server.get('/v2/providers'),
      200,
      JSON.stringify([
        {
          key: 'ECB',
          name: 'European Central Bank',
          country_code: 'EU',
          rate_type: 'reference',
          pivot_currency: 'EUR',
          data_url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
          terms_url: null,
          start_date: '2022-08-31',
          end_date: '2026-04-13',
          publish_cadence: 'daily',
          currencies: ['BGN', 'CHF', 'GBP', 'HUF', 'JPY', 'USD'],
        },
      ]),
    ),
  );
});

test('Frankfurter v2 errors: {"status","message"} with Frankfurter\'s status, our wording', async (t) => {
  const server = await startDropInServer(t);
  const cases: [string, string, number, string][] = [
    ['date with from', '/v2/rates?date=2026-04-10&from=2026-04-01', 422, 'date cannot be combined with from or to'],
    ['to without from', '/v2/rates?to=2026-04-10', 422, 'to needs from'],
    ['to before from', '/v2/rates?from=2026-04-13&to=2026-04-10', 422, 'to must not be before from'],
    ['an impossible from', '/v2/rates?from=2026-13-01', 422, 'from must be a valid calendar date in YYYY-MM-DD format'],
    ['malformed base and quotes', '/v2/rates?base=EURO&quotes=US', 422, 'base must be a 3-letter currency code; quotes must be a comma-separated list of 3-letter currency codes'],
    ['an untracked quote', '/v2/rates?quotes=XYZ', 422, 'Unknown currency: XYZ'],
    ['a malformed pair', '/v2/rate/EU/USD', 422, 'base must be a 3-letter currency code'],
    ['a malformed quote', '/v2/rate/EUR/1', 422, 'quote must be a 3-letter currency code'],
    ['an impossible date on a pair', '/v2/rate/EUR/USD?date=2026-02-30', 422, 'date must be a valid calendar date in YYYY-MM-DD format'],
    ['a pair before every stored day', '/v2/rate/EUR/USD?date=2000-01-03', 404, 'No exchange rate data available for 2000-01-03'],
    ['a range before every stored day', '/v2/rates?from=2000-01-01&to=2000-02-01', 404, 'No exchange rate data available between 2000-01-01 and 2000-02-01'],
  ];
  for (const [what, path, status, message] of cases) {
    await t.test(`when ${what} is sent, then ${status}`, () => answers(server.get(path), status, JSON.stringify({ status, message }), path));
  }
});
