import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answers, expectText, startDropInServer } from '../../helpers/drop-in-expect.js';
import { read } from '../../helpers/test-server.js';

/**
 * Frankfurter v1's paths (DECISIONS §16) over a socket, byte for byte. Expected values are
 * hist.csv's per-EUR quotes (test/fixtures/README.md) worked out by hand, 6 places half-up,
 * then written as JSON numbers without trailing zeros: X in base B = rate(X) / rate(B).
 * hist.csv holds 2026-04-13 (a Monday), 2026-04-10 (Friday), 2025-12-31 and 2022-08-31.
 */

const EUR_0413 = '{"CHF":0.9242,"GBP":0.87058,"HUF":366.9,"JPY":186.75,"USD":1.1684}';

test('Frankfurter v1 rate sets', async (t) => {
  const server = await startDropInServer(t);
  const cases: [string, string, string][] = [
    ['latest, in euros, the base left out of the rates', '/v1/latest', `{"amount":1,"base":"EUR","date":"2026-04-13","rates":${EUR_0413}}`],
    [
      'latest with from=usd and to=GBP,JPY',
      '/v1/latest?from=usd&to=GBP,JPY',
      // 0.87058 / 1.1684 = 0.74510441…; 186.75 / 1.1684 = 159.83396097…
      '{"amount":1,"base":"USD","date":"2026-04-13","rates":{"GBP":0.745104,"JPY":159.833961}}',
    ],
    ['base and symbols, the other spellings', '/v1/latest?base=USD&symbols=GBP', '{"amount":1,"base":"USD","date":"2026-04-13","rates":{"GBP":0.745104}}'],
    ['from wins over base, to over symbols', '/v1/latest?from=GBP&base=USD&to=EUR&symbols=JPY', '{"amount":1,"base":"GBP","date":"2026-04-13","rates":{"EUR":1.14866}}'],
    [
      'amount=100 multiplies before the one rounding',
      '/v1/latest?from=USD&to=GBP,JPY&amount=100',
      // 100 × 0.87058 / 1.1684 = 74.5104416…; 100 × 186.75 / 1.1684 = 15983.3960972…
      '{"amount":100,"base":"USD","date":"2026-04-13","rates":{"GBP":74.510442,"JPY":15983.396097}}',
    ],
    [
      'amount=12.50 is echoed as the number 12.5',
      '/v1/2026-04-10?from=GBP&to=CHF&amount=12.50',
      // 12.5 × 0.9241 / 0.87105 = 13.2612938…
      '{"amount":12.5,"base":"GBP","date":"2026-04-10","rates":{"CHF":13.261294}}',
    ],
    ['a day with rates', '/v1/2026-04-10?to=USD,JPY', '{"amount":1,"base":"EUR","date":"2026-04-10","rates":{"JPY":186.43,"USD":1.1711}}'],
    ['a Sunday answers the Friday before', '/v1/2026-04-12?to=USD', '{"amount":1,"base":"EUR","date":"2026-04-10","rates":{"USD":1.1711}}'],
    [
      'a day without BGN in base BGN answers its last day (2025-12-31)',
      '/v1/2026-04-13?from=BGN&to=EUR,USD',
      // 1 / 1.9558 = 0.51129972…; 1.175 / 1.9558 = 0.60077717…
      '{"amount":1,"base":"BGN","date":"2025-12-31","rates":{"EUR":0.5113,"USD":0.600777}}',
    ],
    ['a day after the newest answers the newest', '/v1/2030-01-01?to=USD', '{"amount":1,"base":"EUR","date":"2026-04-13","rates":{"USD":1.1684}}'],
    ['precision=2', '/v1/latest?from=USD&to=JPY,EUR&precision=2', '{"amount":1,"base":"USD","date":"2026-04-13","rates":{"EUR":0.86,"JPY":159.83}}'],
    ['precision=0 writes whole numbers', '/v1/latest?from=USD&to=GBP,JPY&precision=0', '{"amount":1,"base":"USD","date":"2026-04-13","rates":{"GBP":1,"JPY":160}}'],
    [
      'a range, widened back to the last day on or before its start (Frankfurter v1)',
      '/v1/2026-04-11..2026-04-13?to=USD',
      '{"amount":1,"base":"EUR","start_date":"2026-04-10","end_date":"2026-04-13","rates":{"2026-04-10":{"USD":1.1711},"2026-04-13":{"USD":1.1684}}}',
    ],
    [
      'an open range in another base',
      '/v1/2026-04-10..?from=GBP&to=USD,EUR',
      // 1.1711 / 0.87105 = 1.34446932…, 1 / 0.87105 = 1.14803972…; 1.1684 / 0.87058 = 1.34209378…, 1 / 0.87058 = 1.14866018…
      '{"amount":1,"base":"GBP","start_date":"2026-04-10","end_date":"2026-04-13","rates":{"2026-04-10":{"EUR":1.14804,"USD":1.344469},"2026-04-13":{"EUR":1.14866,"USD":1.342094}}}',
    ],
    [
      'a range leaves out the days where nothing asked for has a rate',
      '/v1/2022-08-31..2026-04-13?to=BGN',
      '{"amount":1,"base":"EUR","start_date":"2022-08-31","end_date":"2025-12-31","rates":{"2022-08-31":{"BGN":1.9558},"2025-12-31":{"BGN":1.9558}}}',
    ],
    [
      'a range with an amount',
      '/v1/2026-04-10..2026-04-13?to=JPY&amount=3',
      '{"amount":3,"base":"EUR","start_date":"2026-04-10","end_date":"2026-04-13","rates":{"2026-04-10":{"JPY":559.29},"2026-04-13":{"JPY":560.25}}}',
    ],
  ];
  for (const [what, path, body] of cases) {
    await t.test(`when ${what}, then the answer is Frankfurter's shape with the exact values`, () => answers(server.get(path), 200, body, path));
  }

  await t.test('when /v1/currencies is asked, then every served code maps to its CLDR name', () =>
    answers(
      server.get('/v1/currencies'),
      200,
      '{"BGN":"Bulgarian Lev","CHF":"Swiss Franc","EUR":"Euro","GBP":"British Pound","HUF":"Hungarian Forint","JPY":"Japanese Yen","USD":"US Dollar"}',
    ),
  );

  await t.test('when a JSON parser reads a rate, then it is the native API\'s exact string as a number', async () => {
    const native = (await read(await server.get('/api/v1/rates/latest?base=USD&symbols=HUF'))).json as { rates: { HUF: string } };
    const dropIn = (await read(await server.get('/v1/latest?from=USD&to=HUF'))).json as { rates: { HUF: number } };
    assert.equal(native.rates.HUF, '314.019172');
    assert.equal(dropIn.rates.HUF, Number(native.rates.HUF));
  });
});

test('Frankfurter v1 errors: {"message"} with Frankfurter\'s status, our wording', async (t) => {
  const server = await startDropInServer(t);
  const cases: [string, string, number, string][] = [
    ['a malformed base', '/v1/latest?from=US', 422, 'from must be a 3-letter currency code'],
    ['malformed base and symbols', '/v1/latest?base=1&symbols=U,S', 422, 'base must be a 3-letter currency code; symbols must be a comma-separated list of 3-letter currency codes'],
    ['a malformed to', '/v1/latest?to=USD,', 422, 'to must be a comma-separated list of 3-letter currency codes'],
    ['a malformed amount', '/v1/latest?amount=1e3', 422, 'amount must be a numeric string'],
    ['a zero amount', '/v1/latest?amount=0', 422, 'amount must be a positive number'],
    ['an untracked currency', '/v1/latest?to=XYZ', 422, 'Unknown currency: XYZ'],
    ['a base converted to itself alone', '/v1/latest?from=USD&to=usd', 422, 'to must name a currency other than the base'],
    ['an impossible date', '/v1/2026-02-30', 422, 'date must be a valid calendar date in YYYY-MM-DD format'],
    ['a precision out of range', '/v1/latest?precision=13', 422, 'precision must be an integer from 0 to 12'],
    ['a range ending before it starts', '/v1/2026-04-13..2026-04-10', 422, 'end must not be before start'],
    ['a day before every stored day', '/v1/1999-01-04', 404, 'No exchange rate data available for 1999-01-04'],
    ['a range before every stored day', '/v1/2000-01-01..2000-12-31', 404, 'No exchange rate data available between 2000-01-01 and 2000-12-31'],
  ];
  for (const [what, path, status, message] of cases) {
    await t.test(`when ${what} is sent, then ${status} {"message": "${message}"}`, () => answers(server.get(path), status, JSON.stringify({ message }), path));
  }
});

test('Frankfurter v1 before any ingestion: latest is a 404 in its shape', async (t) => {
  const server = await startDropInServer(t, { ingest: [] });
  await expectText(server.get('/v1/latest'), 404, '{"message":"No exchange rate data has been ingested yet"}');
});
