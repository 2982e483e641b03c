import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError, expectJson, MSG, unknownCurrency } from '../helpers/http-expect.js';
import { convertExact, convertViaRoundedRate, crossRate, formatHalfUp6, parseDecimal, type EcbDay } from '../helpers/oracle.js';
import { randomAmount } from '../helpers/random-amounts.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * /convert and /convert/bulk (SPEC §4, DECISIONS §3): hand-worked literals first, then the BigInt
 * oracle of test/helpers/oracle.ts over many amounts and every currency pair of the fixture.
 */

const V1 = '/api/v1';

/** hist.csv, per 1 EUR (test/fixtures/README.md). */
const HIST: Record<string, EcbDay> = {
  '2026-04-13': { USD: '1.1684', JPY: '186.75', GBP: '0.87058', HUF: '366.9', CHF: '0.9242' },
  '2026-04-10': { USD: '1.1711', JPY: '186.43', GBP: '0.87105', HUF: '377.2', CHF: '0.9241' },
  '2025-12-31': { USD: '1.175', JPY: '184.09', BGN: '1.9558', GBP: '0.8726', HUF: '385.15', CHF: '0.9314' },
  '2022-08-31': { USD: '1', JPY: '138.72', BGN: '1.9558', GBP: '0.86035', HUF: '402.8', CHF: '0.9796' },
};
const LATEST = HIST['2026-04-13']!;

const one = (from: string, to: string, amount: string, result: string, rate: string, date = '2026-04-13') => ({
  from,
  to,
  amount,
  result,
  rate,
  date,
});

test('when the oracle is checked against hand arithmetic, then it agrees', () => {
  assert.equal(formatHalfUp6(parseDecimal('0.0000005')), '0.000001'); // half goes up (half-even would give 0)
  assert.equal(formatHalfUp6(parseDecimal('0.0000025')), '0.000003');
  assert.equal(formatHalfUp6(parseDecimal('0.00000049')), '0.000000');
  assert.equal(formatHalfUp6(parseDecimal('-2.5')), '-2.500000');
  assert.equal(formatHalfUp6(parseDecimal('+.5')), '0.500000');
  assert.equal(crossRate(LATEST, 'USD', 'JPY'), '159.833961'); // 186.75 / 1.1684 = 159.83396097…
  assert.equal(convertExact(LATEST, 'USD', 'JPY', '1000'), '159833.960972');
  assert.equal(convertViaRoundedRate(LATEST, 'USD', 'JPY', '1000'), '159833.961000');
});

test('convert against hand-worked values', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const cases: [string, string, unknown][] = [
    // 100 × 186.75 / 1.1684 = 15983.39609722… ; rate 186.75 / 1.1684 = 159.83396097…
    ['USD→JPY 100', 'from=USD&to=JPY&amount=100', one('USD', 'JPY', '100', '15983.396097', '159.833961')],
    // rounded once: 1000 × 186.75 / 1.1684 = 159833.96097226…, not 1000 × 159.833961 = 159833.961000
    ['usd→jpy 1000 (lower case)', 'from=usd&to=jpy&amount=1000', one('USD', 'JPY', '1000', '159833.960972', '159.833961')],
    // 123456789012345678901234567890 × 186.75 / 1.1684 = 19732587596761002682990033852668.17870592…
    // (× the rounded rate would give …600184487760018448775982.112290)
    [
      'USD→JPY with a 30-digit amount',
      'from=USD&to=JPY&amount=123456789012345678901234567890',
      one('USD', 'JPY', '123456789012345678901234567890', '19732587596761002682990033852668.178706', '159.833961'),
    ],
    // 0.0000005 × 1 = 0.0000005, exactly half a unit: half-up gives 0.000001 (half-even would give 0.000000)
    ['EUR→EUR 0.0000005', 'from=EUR&to=EUR&amount=0.0000005', one('EUR', 'EUR', '0.0000005', '0.000001', '1.000000')],
    ['EUR→EUR 0.0000025', 'from=EUR&to=EUR&amount=0.0000025', one('EUR', 'EUR', '0.0000025', '0.000003', '1.000000')],
    // 0.125 × 0.87058 = 0.1088225 exactly: half-up 0.108823 (half-even 0.108822)
    ['EUR→GBP 0.125', 'from=EUR&to=GBP&amount=0.125', one('EUR', 'GBP', '0.125', '0.108823', '0.870580')],
    // 0.0000004 × 0.9242 / 1.1684 = 0.000000316… → 0.000000
    ['USD→CHF 0.0000004', 'from=USD&to=CHF&amount=0.0000004', one('USD', 'CHF', '0.0000004', '0.000000', '0.790996')],
    // 3 × 0.9242 / 0.87058 = 3.18477336… ; rate 0.9242 / 0.87058 = 1.06159112…
    ['GBP→CHF +3', 'from=GBP&to=CHF&amount=%2B3', one('GBP', 'CHF', '+3', '3.184773', '1.061591')],
    // 0.5 / 1.1684 = 0.42793563… ; rate 1 / 1.1684 = 0.85587127…
    ['USD→EUR .5', 'from=USD&to=EUR&amount=.5', one('USD', 'EUR', '.5', '0.427936', '0.855871')],
    // 12.5 × 366.9 / 186.75 = 24.55823293… ; rate 366.9 / 186.75 = 1.96465863…
    ['JPY→HUF 0012.50', 'from=JPY&to=HUF&amount=0012.50', one('JPY', 'HUF', '0012.50', '24.558233', '1.964659')],
    ['GBP→GBP 12.5', 'from=GBP&to=gbp&amount=12.5', one('GBP', 'GBP', '12.5', '12.500000', '1.000000')],
    // BGN stopped on 2025-12-31: 250 × 1.175 / 1.9558 = 150.19429389… ; rate 0.60077717…
    ['BGN→USD 250', 'from=bgn&to=USD&amount=250', one('BGN', 'USD', '250', '150.194294', '0.600777', '2025-12-31')],
    ['EUR→BGN 100', 'from=EUR&to=BGN&amount=100', one('EUR', 'BGN', '100', '195.580000', '1.955800', '2025-12-31')],
  ];
  for (const [when, query, body] of cases) {
    await t.test(`when ${when}, then the exact conversion`, () =>
      expectJson(server.get(`${V1}/convert?${query}`), 200, body).then(() => undefined),
    );
  }
  await t.test('when a tracked currency has no rate on any day (SEK), then 404 no data', () =>
    expectError(server.get(`${V1}/convert?from=USD&to=SEK&amount=1`), 404, MSG.noData).then(() => undefined),
  );
});

test('bulk against hand-worked values', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const cases: [string, string, unknown][] = [
    [
      'USD 100 to JPY,GBP,jpy,EUR,USD',
      'from=USD&amount=100&to=JPY,GBP,jpy,EUR,USD',
      {
        from: 'USD',
        amount: '100',
        date: '2026-04-13',
        conversions: [
          { to: 'JPY', result: '15983.396097', rate: '159.833961' }, // 100 × 186.75 / 1.1684
          { to: 'GBP', result: '74.510442', rate: '0.745104' }, // 100 × 0.87058 / 1.1684 = 74.51044162…
          { to: 'EUR', result: '85.587128', rate: '0.855871' }, // 100 / 1.1684 = 85.58712769…
          { to: 'USD', result: '100.000000', rate: '1.000000' },
        ],
      },
    ],
    [
      'GBP 1 to HUF,CHF,EUR (request order kept)',
      'from=gbp&amount=1&to=HUF,chf,EUR',
      {
        from: 'GBP',
        amount: '1',
        date: '2026-04-13',
        conversions: [
          { to: 'HUF', result: '421.443176', rate: '421.443176' }, // 366.9 / 0.87058 = 421.44317581…
          { to: 'CHF', result: '1.061591', rate: '1.061591' }, // 0.9242 / 0.87058 = 1.06159112…
          { to: 'EUR', result: '1.148660', rate: '1.148660' }, // 1 / 0.87058 = 1.14865951…
        ],
      },
    ],
    [
      'EUR 100 to USD,BGN (BGN stopped: its last day)',
      'from=EUR&amount=100&to=USD,BGN',
      {
        from: 'EUR',
        amount: '100',
        date: '2025-12-31',
        conversions: [
          { to: 'USD', result: '117.500000', rate: '1.175000' },
          { to: 'BGN', result: '195.580000', rate: '1.955800' },
        ],
      },
    ],
    [
      'EUR 0.0000005 to EUR,GBP (amount echoed, rounded half-up)',
      'from=EUR&amount=%2B0.0000005&to=EUR,GBP',
      {
        from: 'EUR',
        amount: '+0.0000005',
        date: '2026-04-13',
        conversions: [
          { to: 'EUR', result: '0.000001', rate: '1.000000' },
          { to: 'GBP', result: '0.000000', rate: '0.870580' }, // 0.0000005 × 0.87058 = 0.00000043529
        ],
      },
    ],
  ];
  for (const [when, query, body] of cases) {
    await t.test(`when bulk ${when}, then the exact answer`, () =>
      expectJson(server.get(`${V1}/convert/bulk?${query}`), 200, body).then(() => undefined),
    );
  }
});

test('untracked currencies and the ISK gap in conversions (legacy.csv)', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv', 'legacy.csv'] });
  await t.test('when RUB (stored, not tracked) is converted, then 400 "Unknown currency: RUB"', async () => {
    await expectError(server.get(`${V1}/convert?from=rub&to=USD&amount=1`), 400, unknownCurrency('RUB'));
    await expectError(server.get(`${V1}/convert/bulk?from=EUR&amount=1&to=USD,HRK`), 400, unknownCurrency('HRK'));
  });
  await t.test('when ISK (absent from hist.csv) is a target, then the last day with ISK and every target', () =>
    // 2022-03-02: 1000 × 143 / 1.1106 = 128759.22924545… ; 1000 × 0.83316 / 1.1106 = 750.18908698…
    expectJson(server.get(`${V1}/convert/bulk?from=USD&amount=1000&to=ISK,GBP`), 200, {
      from: 'USD',
      amount: '1000',
      date: '2022-03-02',
      conversions: [
        { to: 'ISK', result: '128759.229245', rate: '128.759229' },
        { to: 'GBP', result: '750.189087', rate: '0.750189' },
      ],
    }).then(() => undefined),
  );
});

/** Deterministic amounts: a linear congruential generator, so a failure always reproduces. */
function amounts(count: number): string[] {
  let seed = 20260413n;
  const next = (bound: bigint) => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n) % bound;
  const out = ['1', '7', '0.0000005', '0.00000049', '999999999999999999.999999999', '0.333333333333'];
  out.push('123456789012345678901234567890', `${'9'.repeat(30)}.${'9'.repeat(12)}`);
  while (out.length < count) {
    const whole = next(10n ** (next(22n) + 1n)).toString();
    const fraction = next(10n ** 13n).toString().slice(0, Number(next(13n)));
    out.push(fraction ? `${next(2n) ? whole : ''}.${fraction}` : whole || '1');
  }
  return out.filter((amount) => parseDecimal(amount).num > 0n);
}

test('oracle: every pair, many amounts', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const codes = ['EUR', ...Object.keys(LATEST)];
  await t.test('when bulk converts many amounts into every currency, then each result is the exact one, rounded once', async () => {
    for (const from of codes) {
      for (const amount of amounts(14)) {
        const answer = await read(await server.get(`${V1}/convert/bulk?from=${from}&amount=${amount}&to=${codes.join(',')}`));
        const body = answer.json as { date: string; amount: string; conversions: { to: string; result: string; rate: string }[] };
        assert.equal(body.date, '2026-04-13');
        assert.equal(body.amount, amount);
        assert.deepEqual(
          body.conversions,
          codes.map((to) => ({ to, result: convertExact(LATEST, from, to, amount), rate: crossRate(LATEST, from, to) })),
          `${amount} ${from}`,
        );
      }
    }
  });
  await t.test('when one bulk question is asked again with amounts of up to 4 places and 18 digits, then each result is the exact one, rounded once', async () => {
    const random = seededRandom(20261125);
    for (const from of codes) {
      for (let i = 0; i < 100; i++) {
        const amount = randomAmount(random, 18);
        const answer = await read(await server.get(`${V1}/convert/bulk?from=${from}&amount=${encodeURIComponent(amount)}&to=${codes.join(',')}`));
        assert.deepEqual(
          (answer.json as { conversions: unknown }).conversions,
          codes.map((to) => ({ to, result: convertExact(LATEST, from, to, amount), rate: crossRate(LATEST, from, to) })),
          `${amount} ${from}`,
        );
      }
    }
  });
  await t.test('when convert is asked for every pair, then result and rate match the oracle', async () => {
    for (const from of codes) {
      for (const to of codes) {
        const amount = amounts(9)[(from.charCodeAt(0) + to.charCodeAt(1)) % 9]!;
        const answer = await read(await server.get(`${V1}/convert?from=${from}&to=${to}&amount=${amount}`));
        assert.equal(answer.text, JSON.stringify(one(from, to, amount, convertExact(LATEST, from, to, amount), crossRate(LATEST, from, to))));
      }
    }
  });
  await t.test('when every day is asked in every base, then each rate matches the oracle', async () => {
    for (const [date, day] of Object.entries(HIST)) {
      const dayCodes = ['EUR', ...Object.keys(day)].sort();
      for (const base of dayCodes) {
        const expected = Object.fromEntries(dayCodes.map((code) => [code, crossRate(day, base, code)]));
        const answer = await read(await server.get(`${V1}/rates/${date}?base=${base}`));
        assert.equal(answer.text, JSON.stringify({ base, date, rates: expected }), `${date} ${base}`);
      }
    }
  });
});
