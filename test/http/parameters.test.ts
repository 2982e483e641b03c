import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError, MSG, noDataOn, type ReadResponse } from '../helpers/http-expect.js';
import { read, startTestApp } from '../helpers/test-server.js';

/** DECISIONS §2, parameter by parameter, against hist.csv (latest day 2026-04-13). */

const V1 = '/api/v1';
const codes = (n: number, code = 'USD') => Array.from({ length: n }, () => code).join(',');
const conv = (query: string) => `${V1}/convert?${query}`;
const bulk = (query: string) => `${V1}/convert/bulk?${query}`;

test('DECISIONS §2: missing, repeated and empty parameters', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const cases: [string, string, string[]][] = [
    ['convert has no `from`', conv('to=USD&amount=1'), [MSG.from]],
    ['convert has no `to`', conv('from=USD&amount=1'), [MSG.to]],
    ['convert has no `amount`', conv('from=USD&to=EUR'), [MSG.amount]],
    ['bulk has no `from`', bulk('amount=1&to=USD'), [MSG.from]],
    ['bulk has no `amount`', bulk('from=USD&to=EUR'), [MSG.amount]],
    ['bulk has no `to`', bulk('from=USD&amount=1'), [MSG.toMin]],
    ['bulk has an empty `to`', bulk('from=USD&amount=1&to='), [MSG.toMin]],
    ['bulk has no parameter at all', `${V1}/convert/bulk`, [MSG.from, MSG.amount, MSG.toMin]],
    ['convert repeats `from`', conv('from=USD&from=EUR&to=GBP&amount=1'), [MSG.from]],
    ['convert repeats `to`', conv('from=USD&to=EUR&to=GBP&amount=1'), [MSG.to]],
    ['convert repeats `amount`', conv('from=USD&to=EUR&amount=1&amount=1'), [MSG.amount]],
    ['bulk repeats `from`', bulk('from=USD&from=USD&amount=1&to=EUR'), [MSG.from]],
    ['bulk repeats `to`', bulk('from=USD&amount=1&to=EUR&to=GBP'), [MSG.toList]],
    ['bulk repeats `to` with bad codes', bulk('from=USD&amount=1&to=E&to=G'), [MSG.toList]],
    ['rates repeat `base`', `${V1}/rates/latest?base=USD&base=GBP`, [MSG.base]],
    ['rates repeat `symbols`', `${V1}/rates/2026-04-13?symbols=USD&symbols=GBP`, [MSG.symbols]],
    ['`symbols` is empty', `${V1}/rates/latest?symbols=`, [MSG.symbols]],
    ['`base` is empty', `${V1}/rates/2026-04-13?base=`, [MSG.base]],
    ['`from` is empty', conv('from=&to=USD&amount=1'), [MSG.from]],
    ['`to` is empty on convert', conv('from=USD&to=&amount=1'), [MSG.to]],
    ['`amount` is empty', conv('from=USD&to=EUR&amount='), [MSG.amount]],
  ];
  for (const [when, path, message] of cases) {
    await t.test(`when ${when}, then 400 ${JSON.stringify(message)}`, () => expectError(server.get(path), 400, message).then(() => undefined));
  }
});

test('DECISIONS §2: lists of codes', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  for (const list of ['USD,,GBP', 'USD,', ',USD', 'USD,GB', 'USD%20,GBP', 'USD,%20GBP', 'USDGBP', 'U1D', 'USD%3BGBP', 'ÜSD']) {
    await t.test(`when symbols=${list}, then 400 [symbols rule]`, () =>
      expectError(server.get(`${V1}/rates/latest?symbols=${list}`), 400, [MSG.symbols]).then(() => undefined),
    );
    await t.test(`when bulk to=${list}, then 400 [to list rule]`, () =>
      expectError(server.get(bulk(`from=USD&amount=1&to=${list}`)), 400, [MSG.toList]).then(() => undefined),
    );
  }
  await t.test('when a list is comma-encoded (%2C), then it is read as the same list', async () => {
    const answer = await read(await server.get(`${V1}/rates/latest?symbols=USD%2CGBP`));
    assert.equal(answer.text, '{"base":"EUR","date":"2026-04-13","rates":{"GBP":"0.870580","USD":"1.168400"}}');
  });
  await t.test('when symbols repeat a code in other cases (JPY,jpy,Jpy), then it is one code', async () => {
    const answer = await read(await server.get(`${V1}/rates/latest?symbols=JPY,jpy,Jpy`));
    assert.equal(answer.text, '{"base":"EUR","date":"2026-04-13","rates":{"JPY":"186.750000"}}');
  });
  await t.test('when bulk `to` holds 25 codes as written (all USD), then 200 with one entry', async () => {
    const answer = await read(await server.get(bulk(`from=EUR&amount=1&to=${codes(25)}`)));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.text, '{"from":"EUR","amount":"1","date":"2026-04-13","conversions":[{"to":"USD","result":"1.168400","rate":"1.168400"}]}');
  });
  await t.test('when bulk `to` holds 26 codes that collapse to one, then 400 [at most 25] (codes count as written)', () =>
    expectError(server.get(bulk(`from=EUR&amount=1&to=${codes(26)}`)), 400, [MSG.toMax]).then(() => undefined),
  );
  await t.test('when bulk `to` holds 26 codes and one is malformed, then both messages in SPEC order', () =>
    expectError(server.get(bulk(`from=EUR&amount=1&to=${codes(25)},US`)), 400, [MSG.toList, MSG.toMax]).then(() => undefined),
  );
  await t.test('when every bulk field fails, 26 codes included, then from, amount, list, max in order', () =>
    expectError(server.get(bulk(`to=US,${codes(25)}&amount=1e3&from=12`)), 400, [MSG.from, MSG.amount, MSG.toList, MSG.toMax]).then(
      () => undefined,
    ),
  );
  await t.test('when an unknown query parameter is sent, then it is ignored', async () => {
    const plain = await read(await server.get(`${V1}/rates/latest`));
    const extra = await read(await server.get(`${V1}/rates/latest?foo=bar&callback=x`));
    assert.equal(extra.status, 200);
    assert.equal(extra.text, plain.text);
    assert.equal((await server.get(conv('from=USD&to=JPY&amount=1&precision=2'))).status, 200);
  });
});

test('DECISIONS §2: numeric strings', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const both = async (amount: string, check: (answer: ReadResponse, what: string) => void | Promise<void>) => {
    for (const path of [conv(`from=EUR&to=EUR&amount=${amount}`), bulk(`from=EUR&amount=${amount}&to=EUR`)]) {
      await check(await read(await server.get(path)), path);
    }
  };
  // Sent form → the amount as the service receives it (and must echo), EUR→EUR so result = amount.
  for (const [sent, echoed, result] of [
    ['12', '12', '12.000000'],
    ['12.5', '12.5', '12.500000'],
    ['.5', '.5', '0.500000'],
    ['%2B3', '+3', '3.000000'],
    ['0012.50', '0012.50', '12.500000'],
    ['%2B.25', '+.25', '0.250000'],
  ] as const) {
    await t.test(`when amount=${sent}, then it is numeric and positive and echoed as ${echoed}`, () =>
      both(sent, (answer, what) => {
        assert.equal(answer.status, 200, `${what}: ${answer.text}`);
        const body = answer.json as { amount: string; result?: string; conversions?: { result: string }[] };
        assert.equal(body.amount, echoed);
        assert.equal(body.result ?? body.conversions?.[0]?.result, result);
      }),
    );
  }
  for (const sent of ['-2', '0', '0.00', '-0', '%2B0', '-.5', '000', '0.0000000']) {
    await t.test(`when amount=${sent}, then 400 "${MSG.positive}"`, () =>
      both(sent, (answer, what) => {
        assert.equal(answer.status, 400, what);
        assert.equal(answer.text, JSON.stringify({ statusCode: 400, message: MSG.positive, error: 'Bad Request' }), what);
      }),
    );
  }
  const notNumeric = ['5.', '1e3', '1E3', '%205', '5%20', '0x10', '1,000', 'NaN', 'Infinity', '-Infinity', '1.2.3', '--1'];
  // '%2B' is a lone '+'; '%EF%BC%91' is a full-width digit one.
  for (const sent of [...notNumeric, '%2B', '.', '-', '1_000', '%EF%BC%91']) {
    await t.test(`when amount=${sent}, then 400 ["${MSG.amount}"]`, () =>
      both(sent, (answer, what) => {
        assert.equal(answer.status, 400, what);
        assert.equal(answer.text, JSON.stringify({ statusCode: 400, message: [MSG.amount], error: 'Bad Request' }), what);
      }),
    );
  }
});

test('DECISIONS §2: the date path parameter', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const invalid = ['2023-02-29', '1900-02-29', '2024-02-30', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00'];
  const malformed = ['2024-4-01', '2024-04-1', '24-04-01', '20240401', '2024-04-01T00:00:00Z', '%202024-04-01', 'yesterday', '2026-04-13x'];
  for (const date of [...invalid, ...malformed, '+2026-04-13']) {
    await t.test(`when the date is ${date}, then 400 [date rule]`, () =>
      expectError(server.get(`${V1}/rates/${date}`), 400, [MSG.date]).then(() => undefined),
    );
  }
  for (const date of ['2024-02-29', '2000-02-29', '2026-04-11', '2026-04-12', '2099-12-31', '0001-01-01']) {
    await t.test(`when the date is ${date} (valid, no rates), then 404 "${noDataOn(date)}"`, () =>
      expectError(server.get(`${V1}/rates/${date}`), 404, noDataOn(date)).then(() => undefined),
    );
  }
});
