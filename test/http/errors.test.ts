import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStores } from '../../src/storage/open-stores.js';
import {
  errorBody,
  expectError,
  expectJson,
  MSG,
  noDataOn,
  rateLimited,
  remainingOf,
  unknownCurrency,
} from '../helpers/http-expect.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * SPEC §7 row by row, DECISIONS §1's order of checks, and the 429 body. The parameter rules of
 * DECISIONS §2 are in parameters.test.ts; quota counting itself in quota.test.ts.
 */

const V1 = '/api/v1';
const KNOWN_PATHS = [`${V1}/rates/latest`, `${V1}/rates/2026-04-13`, `${V1}/convert`, `${V1}/convert/bulk`, `${V1}/currencies`];
/** One well-formed request per endpoint. */
const ENDPOINTS = [
  `${V1}/rates/latest`,
  `${V1}/rates/2026-04-13`,
  `${V1}/convert?from=USD&to=JPY&amount=1`,
  `${V1}/convert/bulk?from=USD&amount=1&to=JPY,GBP`,
  `${V1}/currencies`,
];
const TWENTY_SIX = Array.from({ length: 26 }, () => 'USD').join(',');

type Row = [path: string, status: number, message: string | string[]];

/** The SPEC §7 rows that answer the same whether or not data was ingested. */
const SAME_ROWS: Row[] = [
  [`${V1}/convert?from=US&to=EUR&amount=1`, 400, [MSG.from]],
  [`${V1}/convert/bulk?from=1SD&amount=1&to=USD`, 400, [MSG.from]],
  [`${V1}/convert?from=USD&to=EURO&amount=1`, 400, [MSG.to]],
  [`${V1}/convert/bulk?from=USD&amount=1&to=USD;GBP`, 400, [MSG.toList]],
  [`${V1}/convert/bulk?from=USD&amount=1&to=`, 400, [MSG.toMin]],
  [`${V1}/convert/bulk?from=USD&amount=1&to=${TWENTY_SIX}`, 400, [MSG.toMax]],
  [`${V1}/convert?from=USD&to=EUR&amount=abc`, 400, [MSG.amount]],
  [`${V1}/convert/bulk?from=USD&amount=abc&to=EUR`, 400, [MSG.amount]],
  [`${V1}/convert?from=USD&to=EUR&amount=0`, 400, MSG.positive],
  [`${V1}/convert/bulk?from=USD&amount=-1&to=EUR`, 400, MSG.positive],
  [`${V1}/rates/latest?base=EURO`, 400, [MSG.base]],
  [`${V1}/rates/2026-04-13?base=E1R`, 400, [MSG.base]],
  [`${V1}/rates/latest?symbols=USD;GBP`, 400, [MSG.symbols]],
  [`${V1}/rates/2026-04-13?symbols=US`, 400, [MSG.symbols]],
  [`${V1}/rates/2026-13-01`, 400, [MSG.date]],
  [`${V1}/convert?from=XYZ&to=USD&amount=1`, 400, unknownCurrency('XYZ')],
  [`${V1}/convert/bulk?from=USD&amount=1&to=USD,abc`, 400, unknownCurrency('ABC')],
  [`${V1}/rates/latest?base=xyz`, 400, unknownCurrency('XYZ')],
  [`${V1}/rates/2026-04-13?symbols=USD,QQQ`, 400, unknownCurrency('QQQ')],
  [`${V1}/rates/2026-04-11`, 404, noDataOn('2026-04-11')],
];

const EMPTY_ROWS: Row[] = [
  [`${V1}/rates/latest`, 404, MSG.noData],
  [`${V1}/rates/latest?base=usd&symbols=JPY`, 404, MSG.noData],
  [`${V1}/convert?from=USD&to=JPY&amount=1`, 404, MSG.noData],
  [`${V1}/convert/bulk?from=USD&amount=1&to=JPY,GBP`, 404, MSG.noData],
  [`${V1}/rates/2026-04-13`, 404, noDataOn('2026-04-13')],
];

for (const [state, ingest, rows] of [
  ['no data is ingested', [], [...SAME_ROWS, ...EMPTY_ROWS]],
  ['hist.csv is ingested', ['hist.csv'], SAME_ROWS],
] as const) {
  test(`SPEC §7 rows when ${state}`, async (t) => {
    const server = await startTestApp(t, { ingest: [...ingest] });
    for (const [path, status, message] of rows) {
      await t.test(`when GET ${path}, then ${status} ${JSON.stringify(message)}`, async () => {
        const answer = await expectError(server.get(path), status, message);
        assert.equal(answer.headers.get('access-control-allow-origin'), '*');
        assert.equal(answer.headers.get('x-ratelimit-limit'), '1000');
        assert.equal(answer.headers.get('www-authenticate'), null);
      });
    }
    await t.test('when /currencies is asked, then it answers 200 whatever was ingested', async () => {
      assert.equal((await server.get(`${V1}/currencies`)).status, 200);
    });
    for (const path of ENDPOINTS) {
      await t.test(`when GET ${path} has no Authorization header, then 401 "${MSG.malformedAuth}"`, async () => {
        const answer = await expectError(server.get(path, { auth: false }), 401, MSG.malformedAuth);
        assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      });
      await t.test(`when GET ${path} carries a wrong key, then 401 "${MSG.invalidKey}"`, async () => {
        const answer = await expectError(server.get(path, { headers: { authorization: 'Bearer cr_not-a-key' } }), 401, MSG.invalidKey);
        assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      });
    }
  });
}

test('DECISIONS §1: route checks come before auth and are not counted', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const remaining = async () => remainingOf(await read(await server.get(`${V1}/currencies`)));

  await t.test('when an unknown path is asked without a key, then 404 "Cannot GET <path>" and nothing is counted', async () => {
    const before = await remaining();
    for (const [path, shown] of [
      ['/the/path', '/the/path'],
      ['/the/path?base=XX&x=1', '/the/path'],
      [`${V1}/rates`, `${V1}/rates`],
      [`${V1}/rates/latest/extra`, `${V1}/rates/latest/extra`],
      ['/api/v2/currencies', '/api/v2/currencies'],
    ] as const) {
      await expectJson(server.get(path, { auth: false }), 404, { statusCode: 404, message: `Cannot GET ${shown}`, error: 'Not Found' }, path);
      await expectError(server.get(path, { headers: { authorization: 'Bearer wrong' } }), 404, `Cannot GET ${shown}`, `${path} bad key`);
      const withKey = await expectError(server.get(path), 404, `Cannot GET ${shown}`, `${path} good key`);
      assert.equal(withKey.headers.get('x-ratelimit-remaining'), null, 'an unknown path carries no quota headers');
    }
    assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
  });

  await t.test('when a known path gets POST/PUT/DELETE/PATCH without a key, then 405 with Allow: GET, HEAD, not counted', async () => {
    const before = await remaining();
    for (const path of KNOWN_PATHS) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const answer = await expectError(server.get(`${path}?from=x`, { method, auth: false }), 405, `Cannot ${method} ${path}`, `${method} ${path}`);
        assert.equal(answer.headers.get('allow'), 'GET, HEAD');
        assert.equal(answer.headers.get('www-authenticate'), null);
        const badKey = await read(await server.get(path, { method, headers: { authorization: 'Basic x' } }));
        assert.equal(badKey.status, 405, `${method} ${path} with a malformed header`);
      }
    }
    assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
  });
});

test('DECISIONS §1: auth, then format, then amount sign, then currency, then data', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const cases: [string, string, Record<string, string> | false, number, string | string[]][] = [
    ['a wrong key comes with bad params', `${V1}/convert?from=1&to=2&amount=x`, { authorization: 'Bearer nope' }, 401, MSG.invalidKey],
    ['no header comes with bad params', `${V1}/rates/2023-02-29?base=1`, false, 401, MSG.malformedAuth],
    ['a format error comes with an unknown currency', `${V1}/convert?from=XYZ&to=1&amount=5`, {}, 400, [MSG.to]],
    ['a format error comes with an unknown base', `${V1}/rates/latest?base=XYZ&symbols=US`, {}, 400, [MSG.symbols]],
    ['a non-positive amount comes with an unknown currency', `${V1}/convert?from=XYZ&to=USD&amount=0`, {}, 400, MSG.positive],
    ['a non-positive bulk amount comes with an unknown target', `${V1}/convert/bulk?from=USD&amount=-3&to=XYZ`, {}, 400, MSG.positive],
    ['`from` is malformed and the amount is not positive', `${V1}/convert?from=US&to=EUR&amount=-1`, {}, 400, [MSG.from]],
    ['bulk `from` is malformed and the amount is zero', `${V1}/convert/bulk?from=1&amount=0&to=USD`, {}, 400, [MSG.from]],
    ['every convert parameter is missing', `${V1}/convert`, {}, 400, [MSG.from, MSG.to, MSG.amount]],
    ['every convert parameter is bad, given in reverse', `${V1}/convert?amount=x&to=2&from=1`, {}, 400, [MSG.from, MSG.to, MSG.amount]],
    ['every bulk parameter is bad, given in reverse', `${V1}/convert/bulk?to=US&amount=x&from=1`, {}, 400, [MSG.from, MSG.amount, MSG.toList]],
    ['date, base and symbols are all bad', `${V1}/rates/2023-02-29?symbols=x&base=1`, {}, 400, [MSG.date, MSG.base, MSG.symbols]],
    ['base and symbols are both empty', `${V1}/rates/latest?symbols=&base=`, {}, 400, [MSG.base, MSG.symbols]],
    ['two codes are unknown, `from` first', `${V1}/convert?from=abc&to=XYZ&amount=1`, {}, 400, unknownCurrency('ABC')],
    ['two bulk targets are unknown', `${V1}/convert/bulk?from=EUR&amount=1&to=USD,xyz,ABC`, {}, 400, unknownCurrency('XYZ')],
    ['base and a symbol are unknown', `${V1}/rates/latest?symbols=XYZ&base=QQQ`, {}, 400, unknownCurrency('QQQ')],
    ['an unknown base meets a date without data', `${V1}/rates/2026-04-11?base=QQQ`, {}, 400, unknownCurrency('QQQ')],
  ];
  for (const [when, path, headers, status, message] of cases) {
    await t.test(`when ${when}, then ${status} ${JSON.stringify(message)}`, async () => {
      await expectError(server.get(path, headers === false ? { auth: false } : { headers }), status, message);
    });
  }
});

test('DECISIONS §1.2: the Authorization header forms', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const path = `${V1}/rates/latest?symbols=USD`;
  for (const header of ['Basic x', `Basic ${server.key}`, 'Bearer', 'Bearer a b', `Bearer ${server.key} x`, `Token ${server.key}`, server.key]) {
    await t.test(`when the header is ${JSON.stringify(header.replace(server.key, 'KEY'))}, then 401 "${MSG.malformedAuth}"`, async () => {
      const answer = await expectError(server.get(path, { headers: { authorization: header } }), 401, MSG.malformedAuth);
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      assert.equal(answer.headers.get('x-ratelimit-remaining'), null);
    });
  }
  for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
    await t.test(`when the scheme is written "${scheme}", then the key works`, async () => {
      assert.equal((await server.get(path, { headers: { authorization: `${scheme} ${server.key}` } })).status, 200);
    });
  }
  await t.test('when the key is revoked while the server runs, then within 5 s it is an invalid key', async () => {
    const stores = await openStores(server.storeConfig);
    try {
      assert.equal(await stores.keys.revoke(server.keyId, new Date()), true);
    } finally {
      await stores.close();
    }
    const deadline = Date.now() + 5000;
    let answer = await read(await server.get(path));
    while (answer.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await read(await server.get(path));
    }
    assert.equal(answer.text, JSON.stringify(errorBody(401, MSG.invalidKey)));
    assert.equal(answer.status, 401);
  });
});

for (const [state, ingest] of [
  ['no data is ingested', []],
  ['hist.csv is ingested', ['hist.csv']],
] as const) {
  test(`SPEC §7 429 row when ${state}`, async (t) => {
    const server = await startTestApp(t, { ingest: [...ingest], env: { QUOTA_LIMIT: '3', QUOTA_PERIOD_DAYS: '7' } });
    for (let i = 0; i < 3; i++) assert.equal((await server.get(`${V1}/currencies`)).status, 200);
    const message = rateLimited(3, 7);
    for (const path of [...ENDPOINTS, ...SAME_ROWS.map(([p]) => p)]) {
      await t.test(`when the quota (3 per 7 days) is used up and GET ${path} comes, then 429 "${message}"`, async () => {
        const answer = await expectJson(server.get(path), 429, { statusCode: 429, message });
        assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
        assert.equal(answer.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(answer.headers.get('x-ratelimit-limit'), '3');
        assert.equal(answer.headers.get('access-control-allow-origin'), '*');
      });
    }
    await t.test('when the quota is used up, then route and auth errors still come first', async () => {
      await expectError(server.get('/the/path'), 404, 'Cannot GET /the/path');
      await expectError(server.get(`${V1}/convert`, { method: 'POST' }), 405, `Cannot POST ${V1}/convert`);
      await expectError(server.get(`${V1}/currencies`, { headers: { authorization: 'Bearer wrong' } }), 401, MSG.invalidKey);
      await expectError(server.get(`${V1}/currencies`, { auth: false }), 401, MSG.malformedAuth);
    });
  });
}

test('SPEC §7 429 row with the default quota', async (t) => {
  const server = await startTestApp(t);
  await t.test('when 1000 requests were counted, then the next is 429 with the SPEC message', async () => {
    let sent = 0;
    const worker = async () => {
      while (sent < 1000) {
        sent++;
        const answer = await read(await server.get(`${V1}/currencies`));
        assert.equal(answer.status, 200);
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    const answer = await expectJson(server.get(`${V1}/currencies`), 429, {
      statusCode: 429,
      message: 'Rate limit exceeded: 1000 requests per 30-day period',
    });
    assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });
});
