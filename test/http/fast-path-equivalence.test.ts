import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { ManualClock, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The fast path (src/http/fast-path.ts) must answer exactly as the Fastify routes do. Two servers
 * on the same data and the same clock, one with the fast path and one without, get the same
 * requests in the same order; every answer must agree byte for byte: status, body and every
 * header except the per-request id and the date. Each request is sent twice, so the second goes
 * through the response cache on both.
 */

const V1 = '/api/v1';
const PATHS = [
  `${V1}/rates/latest`,
  `${V1}/rates/latest?`,
  `${V1}/rates/latest?base=usd&symbols=JPY,gbp`,
  `${V1}/rates/latest?symbols=JPY&symbols=GBP`,
  `${V1}/rates/latest?base=XXX`,
  `${V1}/rates/latest?base=US`,
  `${V1}/rates/latest?symbols=`,
  `${V1}/rates/latest?base=USD&extra=1`,
  `${V1}/rates/latest/`,
  `${V1}/rates/latest#frag`,
  `${V1}/rates/2026-04-13`,
  `${V1}/rates/2026-04-13?base=GBP&symbols=USD`,
  `${V1}/rates/2026-04-12`,
  `${V1}/rates/1990-01-01`,
  `${V1}/rates/2026-02-30`,
  `${V1}/rates/2026-4-13`,
  `${V1}/rates/2026%2D04%2D13`,
  `${V1}/rates/2026-04-13/`,
  `${V1}/rates/`,
  `${V1}/rates`,
  `${V1}/convert?from=USD&to=JPY&amount=10`,
  `${V1}/convert?from=usd&to=jpy&amount=0.000001`,
  `${V1}/convert?from=USD&to=JPY&amount=123456789012345678901234567890.123456789`,
  `${V1}/convert?from=USD&to=JPY&amount=0`,
  `${V1}/convert?from=USD&to=JPY&amount=-5`,
  `${V1}/convert?from=USD&to=JPY&amount=1e3`,
  `${V1}/convert?from=USD&to=JPY&amount=%2010`,
  `${V1}/convert?from=USD&to=JPY&amount=10&amount=20`,
  `${V1}/convert?from=USD&to=ZZZ&amount=10`,
  `${V1}/convert?from=USD&to=JPY&amount=10&date=2026-04-13`,
  `${V1}/convert?from=EUR&to=EUR&amount=1`,
  `${V1}/convert?to=JPY&amount=10`,
  `${V1}/convert/bulk?from=GBP&to=USD,JPY,CHF&amount=250.5`,
  `${V1}/convert/bulk?from=GBP&to=USD,usd&amount=1`,
  `${V1}/convert/bulk?from=GBP&to=&amount=1`,
  `${V1}/convert/bulk?from=GBP&to=USD,,JPY&amount=1`,
  `${V1}/convert/bulk?from=GBP&to=USD&to=JPY&amount=1`,
  `${V1}/convert/bulk?from=GBP&to=${Array.from({ length: 26 }, () => 'USD').join(',')}&amount=1`,
  // One question with other amounts after it has been answered (conversion-questions.ts): each
  // must be validated as if new, whatever the first one left behind.
  ...[
    '7.25', '0', '0.0', '-7', '+7', '%2B7', '7%2E5', '1e3', '.5', '5.', '', '00012.500', '%207', '7&amount=8', '7&amount', '7&x=1',
    '123456789012345678901234567890.123456789',
  ].flatMap((amount) => [
    `${V1}/convert/bulk?from=GBP&to=USD,JPY,CHF&amount=${amount}`,
    `${V1}/convert?amount=${amount}&from=USD&to=JPY`,
  ]),
  `${V1}/convert?amount=5&amount=6&from=USD&to=JPY`,
  `${V1}/convert?amount=5&from=USD&to=JPY&amount=6`,
  `${V1}/convert?xamount=5&amount=6&from=USD&to=JPY`,
  `${V1}/convert?xamount=5&amount=7&from=USD&to=JPY`,
  `${V1}/convert?from=USD&to=ZZZ&amount=11`,
  `${V1}/convert?from=USD&to=ZZZ&amount=12`,
  `${V1}/convert/bulk?from=GBP&to=USD,JPY&amount=1&to=CHF`,
  `${V1}/convert/bulk?from=GBP&to=USD,JPY&amount=2&to=CHF`,
  `${V1}/currencies`,
  `${V1}/currencies?x=1`,
  `${V1}/currencies/`,
  `${V1}/CURRENCIES`,
  `${V1}//currencies`,
  `${V1}/nothing-here`,
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Raw HTTP, so the paths go out exactly as written (fetch would normalise some). `headers` replace
 * the key's Authorization header; a null one is left out.
 */
function get(server: TestServer, path: string, headers: Record<string, string | null> = {}, method = 'GET'): Promise<Answer> {
  const sent = Object.fromEntries(Object.entries({ authorization: `Bearer ${server.key}`, ...headers }).filter((entry): entry is [string, string] => entry[1] !== null));
  return new Promise((resolve, reject) => {
    const req = request(server.url + '/', { method, path, headers: sent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function comparable(answer: Answer) {
  const { date: _date, 'x-request-id': _id, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body };
}

test('when the same requests reach a server with the fast path and one without, then every answer is the same', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 3, 14, 9));
  const options = { ingest: ['hist.csv', 'daily.xml'], clock, env: { QUOTA_LIMIT: '500' } };
  const fast = await startTestServer(t, options);
  const framework = await startTestServer(t, { ...options, fastPath: false });
  const both = async (path: string, headers: Record<string, string | null> = {}, method = 'GET') => {
    const [a, b] = [await get(fast, path, headers, method), await get(framework, path, headers, method)];
    assert.deepEqual(comparable(a), comparable(b), `${method} ${path} ${JSON.stringify(headers)}`);
    return a;
  };

  for (const path of PATHS) {
    await both(path);
    const again = await both(path);
    const etag = again.headers.etag;
    if (typeof etag === 'string') {
      assert.equal((await both(path, { 'if-none-match': etag })).status, 304);
      await both(path, { 'if-none-match': `W/${etag}, "other"` });
      await both(path, { 'if-none-match': '"other"' });
    }
  }
  await both(`${V1}/rates/latest`, { 'x-request-id': 'caller-chosen-id-1' }).then((answer) => assert.equal(answer.headers['x-request-id'], 'caller-chosen-id-1'));
  await both(`${V1}/rates/latest`, { 'x-request-id': 'not acceptable!' });
  await both(`${V1}/rates/latest`, {}, 'HEAD');
  await both(`${V1}/rates/latest`, { authorization: 'Bearer cr_unknown' });
  await both(`${V1}/rates/latest`, { authorization: 'Basic abc' });
  // Without a well-formed key: the fast path answers the 401 of an endpoint, the router the rest.
  for (const path of [`${V1}/rates/latest`, `${V1}/rates/2026-04-13?base=GBP`, `${V1}/convert?from=US&to=JPY&amount=abc`, `${V1}/convert/bulk?from=GBP&to=USD&amount=1`, `${V1}/currencies`, `${V1}/rates/latest/`, `${V1}/rates/2026%2D04%2D13`, `${V1}/nothing-here`, `${V1}/rates/latest#frag`]) {
    for (const authorization of [null, '', 'Bearer', 'Bearer a b', 'bearer  x y', 'Token abc']) {
      await both(path, { authorization });
    }
  }
  assert.equal((await both(`${V1}/rates/latest`, { authorization: null })).status, 401);
  assert.equal((await both(`${V1}/nothing-here`, { authorization: null })).status, 404);
  await both(`${V1}/rates/latest`, { authorization: null }, 'HEAD');
  await both(`${V1}/rates/latest`, { 'content-length': '0' });

  // Until the quota runs out, and past it: the 429s agree too.
  let last: Answer | undefined;
  for (let i = 0; i < 500 && last?.status !== 429; i++) last = await both(`${V1}/convert?from=USD&to=JPY&amount=${i + 1}`);
  assert.equal(last?.status, 429);
  await both(`${V1}/rates/latest`);
  // The quota is checked before the input (DECISIONS §1): refusals of input the fast path now
  // answers itself get the 429 too, once the quota is used up.
  for (const refused of [`${V1}/convert?from=US&to=JPY&amount=abc`, `${V1}/convert?from=USD&to=ZZZ&amount=1`, `${V1}/convert?from=USD&to=JPY&amount=0`, `${V1}/rates/1990-01-01`]) {
    assert.equal((await both(refused)).status, 429, refused);
  }
});
