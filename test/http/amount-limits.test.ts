import { test } from 'node:test';
import { expectError, expectJson, MSG } from '../helpers/http-expect.js';
import { startTestApp } from '../helpers/test-server.js';

/**
 * An amount may have at most 30 digits before the point and 12 after (as written, leading and
 * trailing zeros included, the sign not counted). A longer one fails the numeric-string rule with
 * the same message as any malformed amount, on /convert and /convert/bulk alike. Against hist.csv
 * (latest day 2026-04-13).
 */

const V1 = '/api/v1';
const conv = (query: string) => `${V1}/convert?${query}`;
const bulk = (query: string) => `${V1}/convert/bulk?${query}`;

const INT_30 = '123456789012345678901234567890';
const FRAC_12 = '123456789012';

test('when an amount has at most 30 digits before the point and 12 after, then it converts exactly on /convert and /convert/bulk', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const date = '2026-04-13';
  // EUR→EUR: result = amount rounded once, half-up, to 6 places.
  const cases: [amount: string, sent: string, result: string][] = [
    [INT_30, INT_30, `${INT_30}.000000`],
    [`${INT_30}.${FRAC_12}`, `${INT_30}.${FRAC_12}`, `${INT_30}.123457`],
    [`.${FRAC_12}`, `.${FRAC_12}`, '0.123457'],
    [`+${INT_30}.${FRAC_12}`, `%2B${INT_30}.${FRAC_12}`, `${INT_30}.123457`],
    ['0.000000500000', '0.000000500000', '0.000001'],
    [`000${'9'.repeat(27)}`, `000${'9'.repeat(27)}`, `000${'9'.repeat(27)}`.replace(/^0+/, '') + '.000000'],
  ];
  for (const [amount, sent, result] of cases) {
    await t.test(`when amount=${sent}, then /convert answers 200 with result ${result}`, () =>
      expectJson(server.get(conv(`from=EUR&to=EUR&amount=${sent}`)), 200, { from: 'EUR', to: 'EUR', amount, result, rate: '1.000000', date }).then(() => undefined),
    );
    await t.test(`when amount=${sent}, then /convert/bulk answers 200 with result ${result}`, () =>
      expectJson(server.get(bulk(`from=EUR&amount=${sent}&to=EUR`)), 200, { from: 'EUR', amount, date, conversions: [{ to: 'EUR', result, rate: '1.000000' }] }).then(
        () => undefined,
      ),
    );
  }
  // 123456789012345678901234567890 × 186.75 / 1.1684, rounded once (as in convert.test.ts).
  await t.test('when a 30-digit amount is converted USD→JPY, then the result is exact', () =>
    expectJson(server.get(conv(`from=USD&to=JPY&amount=${INT_30}`)), 200, {
      from: 'USD', to: 'JPY', amount: INT_30, result: '19732587596761002682990033852668.178706', rate: '159.833961', date,
    }).then(() => undefined),
  );
});

test('when an amount has more than 30 digits before the point or more than 12 after, then 400 ["amount must be a numeric string"] on /convert and /convert/bulk', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const tooLong: [what: string, sent: string][] = [
    ['31 digits', `9${INT_30}`],
    ['31 digits, the first a zero', `0${INT_30}`],
    ['31 digits with a fraction', `9${INT_30}.5`],
    ['13 places', `1.${FRAC_12}3`],
    ['13 places, all but the last zero', `0.${'0'.repeat(12)}1`],
    ['13 places, trailing zeros', `1.5${'0'.repeat(12)}`],
    ['13 places without an integer part', `.${FRAC_12}3`],
    ['31 digits and 13 places', `9${INT_30}.${FRAC_12}3`],
    ['31 digits with a plus sign', `%2B9${INT_30}`],
    ['31 digits, negative (format before positivity)', `-9${INT_30}`],
    ['7,000 digits', '9'.repeat(7000)],
  ];
  for (const [what, sent] of tooLong) {
    await t.test(`when amount has ${what}, then /convert answers 400 [amount rule]`, () =>
      expectError(server.get(conv(`from=EUR&to=USD&amount=${sent}`)), 400, [MSG.amount]).then(() => undefined),
    );
    await t.test(`when amount has ${what}, then /convert/bulk answers 400 [amount rule]`, () =>
      expectError(server.get(bulk(`from=EUR&amount=${sent}&to=USD,JPY`)), 400, [MSG.amount]).then(() => undefined),
    );
  }
  await t.test('when every field fails and the amount is too long, then the amount rule appears once, in its place', async () => {
    await expectError(server.get(conv(`from=12&to=U&amount=9${INT_30}`)), 400, [MSG.from, MSG.to, MSG.amount]);
    await expectError(server.get(bulk(`from=12&amount=1.${FRAC_12}3&to=U`)), 400, [MSG.from, MSG.amount, MSG.toList]);
  });
  await t.test('when the amount is too long and malformed too, then the amount rule appears once', () =>
    expectError(server.get(conv(`from=EUR&to=USD&amount=9${INT_30}e3`)), 400, [MSG.amount]).then(() => undefined),
  );
});
