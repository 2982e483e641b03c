import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { test, type TestContext } from 'node:test';
import { errorBody, JSON_TYPE, MSG, remainingOf } from '../helpers/http-expect.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { read, startTestServer } from '../helpers/test-server.js';
import { startLoggedServer } from '../helpers/logged-server.js';

/**
 * DECISIONS §1 and §11 at the edges of HTTP: a repeated Authorization header, methods Fastify
 * does not know, a fragment in the request target, an empty path parameter, and what the access
 * line may show of a URL. Every request is sent raw, exactly as a hostile client would.
 */

const V1 = '/api/v1';
const KNOWN_PATHS = [`${V1}/rates/latest`, `${V1}/rates/2026-04-13`, `${V1}/convert`, `${V1}/convert/bulk`, `${V1}/currencies`];

/** The production server with hist.csv ingested, a raw GET, and the quota left for its key. */
async function hardenedServer(t: TestContext) {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const port = Number(new URL(server.url).port);
  const auth: [string, string] = ['authorization', `Bearer ${server.key}`];
  const raw = (target: string, headers: [string, string][] = [auth], method = 'GET') => rawRequest('127.0.0.1', port, { target, headers, method });
  const remaining = async () => remainingOf(await read(await server.get(`${V1}/currencies`)));
  return { server, auth, raw, remaining };
}

/** Asserts an answer in the spec's error shape, byte for byte, with its content type. */
function assertError(answer: RawAnswer, status: number, message: string | string[], what: string): void {
  assert.equal(answer.status, status, `${what}: status (body ${answer.text})`);
  assert.equal(answer.text, JSON.stringify(errorBody(status, message)), `${what}: body`);
  assert.equal(answer.headers['content-type'], JSON_TYPE, `${what}: content type`);
}

test('DECISIONS §11: two Authorization headers', async (t) => {
  const { auth, raw, remaining } = await hardenedServer(t);
  const cases: [string, [string, string][]][] = [
    ['the same valid key twice', [auth, auth]],
    ['a valid key, then a malformed header', [auth, ['authorization', 'Basic x']]],
    ['a malformed header, then a valid key', [['authorization', 'Basic x'], auth]],
    ['a wrong key, then a valid key', [['authorization', 'Bearer cr_not-a-key'], auth]],
    ['a valid key, then an empty header', [auth, ['authorization', '']]],
    ['the names spelled differently', [['Authorization', auth[1]], ['AUTHORIZATION', auth[1]]]],
  ];
  for (const [what, headers] of cases) {
    await t.test(`when a request carries ${what}, then 401 "${MSG.malformedAuth}" with WWW-Authenticate: Bearer, not counted`, async () => {
      const before = await remaining();
      for (const path of [`${V1}/currencies`, `${V1}/convert?from=USD&to=JPY&amount=1`]) {
        const answer = await raw(path, headers);
        assertError(answer, 401, MSG.malformedAuth, `${what} on ${path}`);
        assert.equal(answer.headers['www-authenticate'], 'Bearer');
        assert.equal(answer.headers['x-ratelimit-remaining'], undefined, 'no quota headers');
      }
      assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
    });
  }
  await t.test('when a request carries one valid key beside other headers, then it is answered 200', async () => {
    const answer = await raw(`${V1}/currencies`, [['x-one', '1'], auth, ['x-two', '2']]);
    assert.equal(answer.status, 200);
  });
});

/** Every method Node's parser hands to the server, but GET, HEAD, OPTIONS (served) and CONNECT (a tunnel, never routed). */
const OTHER_METHODS = METHODS.filter((method) => !['GET', 'HEAD', 'OPTIONS', 'CONNECT'].includes(method));

test('DECISIONS §1.1: every other method on an API path is a 405, not only those Fastify knows', async (t) => {
  const { raw, remaining } = await hardenedServer(t);
  for (const method of OTHER_METHODS) {
    await t.test(`when ${method} is sent to each API path with or without a key, then 405 with Allow: GET, HEAD, not counted`, async () => {
      const before = await remaining();
      for (const path of KNOWN_PATHS) {
        for (const [who, headers] of [
          ['no key', []],
          ['a malformed header', [['authorization', 'Basic x']]],
        ] as [string, [string, string][]][]) {
          const answer = await raw(`${path}?from=x`, headers, method);
          const what = `${method} ${path} with ${who}`;
          assert.equal(answer.status, 405, `${what}: status (body ${answer.text})`);
          assert.equal(answer.text, JSON.stringify(errorBody(405, `Cannot ${method} ${path}`)), `${what}: body`);
          assert.equal(answer.headers['content-type'], JSON_TYPE, `${what}: content type`);
          assert.equal(answer.headers.allow, 'GET, HEAD', `${what}: Allow`);
          assert.equal(answer.headers['www-authenticate'], undefined, `${what}: no auth asked`);
          assert.equal(answer.headers['x-ratelimit-remaining'], undefined, `${what}: no quota headers`);
        }
      }
      assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
    });
  }
  await t.test('when PROPFIND, SEARCH or LOCK is sent to an unknown path, then it stays a 404 "Cannot <METHOD> <path>"', async () => {
    for (const method of ['PROPFIND', 'SEARCH', 'LOCK', 'MKCOL']) {
      for (const path of ['/nowhere', `${V1}/rates`, `${V1}/convert/bulk/extra`]) {
        assertError(await raw(path, [], method), 404, `Cannot ${method} ${path}`, `${method} ${path}`);
      }
    }
  });
});

const FRAGMENT = 'Malformed URL: the request target holds a fragment (#)';

test('RFC 9112 §3.2: a request target never holds a fragment', async (t) => {
  const { auth, raw, remaining } = await hardenedServer(t);
  const targets = [
    `${V1}/convert?from=USD#&to=JPY&amount=1`,
    `${V1}/convert?from=USD&to=JPY&amount=1#`,
    `${V1}/rates/latest#?symbols=USD`,
    `${V1}/currencies#top`,
    '/nowhere#x',
    '/health#x',
  ];
  for (const target of targets) {
    await t.test(`when GET ${target} is sent raw, with or without a key, then 400 "${FRAGMENT}" before auth, not counted`, async () => {
      const before = await remaining();
      for (const headers of [[auth], [], [['authorization', 'Bearer cr_wrong']]] as [string, string][][]) {
        const answer = await raw(target, headers);
        assertError(answer, 400, FRAGMENT, target);
        assert.equal(answer.headers['www-authenticate'], undefined, 'no auth asked');
        assert.equal(answer.headers['x-ratelimit-remaining'], undefined, 'no quota headers');
        assert.equal(answer.headers['access-control-allow-origin'], '*', 'the headers every answer carries');
      }
      assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
    });
  }
  await t.test('when the # is percent-encoded (%23), then it is an ordinary character of the query', async () => {
    const answer = await raw(`${V1}/convert?from=USD%23&to=JPY&amount=1`);
    assertError(answer, 400, [MSG.from], 'an encoded # in from');
  });
});

test('RFC 9112 §3.2.2: an absolute-form target is answered as its path, and messages quote the path alone', async (t) => {
  const { auth, raw } = await hardenedServer(t);
  const origin = 'http://rates.example';
  const asPath = await raw(`${V1}/rates/2026-04-13?symbols=USD`);
  const absolute = await raw(`${origin}${V1}/rates/2026-04-13?symbols=USD`);
  assert.deepEqual([absolute.status, absolute.text], [200, asPath.text]);
  assertError(await raw(`${origin}${V1}/nope?a=1`), 404, `Cannot GET ${V1}/nope`, 'an unknown path');
  assertError(await raw(`${origin}${V1}/convert?from=USD`, [auth], 'POST'), 405, `Cannot POST ${V1}/convert`, 'another method');
  assertError(await raw(`HTTPS://rates.example/docs/%2e%2e/x`, []), 404, 'Cannot GET /docs/%2e%2e/x', 'a dot segment under /docs');
  for (const path of ['/', '/favicon.svg']) {
    const [page, pageAbsolute] = [await raw(path, []), await raw(`${origin}${path}`, [])];
    assert.deepEqual([pageAbsolute.status, pageAbsolute.text], [200, page.text], `the page's ${path}`);
  }
});

test('DECISIONS §1.1: an empty or doubled path segment in /api/v1/rates/ is an unknown path', async (t) => {
  const { auth, raw, remaining } = await hardenedServer(t);
  const cases: [target: string, shown: string][] = [
    [`${V1}/rates/`, `${V1}/rates/`],
    [`${V1}/rates/?base=USD`, `${V1}/rates/`],
    [`${V1}/rates//`, `${V1}/rates//`],
    [`${V1}/rates//2026-04-13`, `${V1}/rates//2026-04-13`],
    [`${V1}/rates/2026-04-13/`, `${V1}/rates/2026-04-13/`],
    [`${V1}//rates/latest`, `${V1}//rates/latest`],
  ];
  for (const [target, shown] of cases) {
    await t.test(`when GET ${target} is asked with or without a key, then 404 "Cannot GET ${shown}", not counted`, async () => {
      const before = await remaining();
      for (const headers of [[auth], [], [['authorization', 'Bearer cr_wrong']]] as [string, string][][]) {
        const answer = await raw(target, headers);
        assertError(answer, 404, `Cannot GET ${shown}`, target);
        assert.equal(answer.headers['www-authenticate'], undefined, 'no auth asked');
        assert.equal(answer.headers['x-ratelimit-remaining'], undefined, 'no quota headers');
      }
      assert.equal(await remaining(), before - 1, 'only the /currencies probe was counted');
    });
  }
  await t.test(`when DELETE or PROPFIND is sent to ${V1}/rates/, then it is a 404 too, not a 405`, async () => {
    for (const method of ['DELETE', 'PROPFIND']) {
      assertError(await raw(`${V1}/rates/`, [], method), 404, `Cannot ${method} ${V1}/rates/`, method);
    }
  });
  await t.test(`when OPTIONS is sent to ${V1}/rates/, then it is a 404, not a preflight`, async () => {
    assertError(await raw(`${V1}/rates/`, [], 'OPTIONS'), 404, `Cannot OPTIONS ${V1}/rates/`, 'OPTIONS');
  });
  await t.test('when the date is present, then the path is still the rates endpoint', async () => {
    assert.equal((await raw(`${V1}/rates/2026-04-13`)).status, 200);
    assertError(await raw(`${V1}/rates/%20`), 400, [MSG.date], 'a blank date');
    assert.equal((await raw(`${V1}/rates/2026-04-13`, [], 'OPTIONS')).status, 204);
  });
});

// ---------------------------------------------------------------------------------------------
// The access line

/** The production server with a logger whose lines the test reads, and a raw GET tagged with a request id. */
async function serverWithLog(t: TestContext) {
  const { port, key, lines } = await startLoggedServer(t);
  let n = 0;
  /** Sends `target` raw and returns the url its access line shows. */
  const loggedUrlOf = async (target: string): Promise<unknown> => {
    const id = `hardening-${++n}`;
    await rawRequest('127.0.0.1', port, { target, headers: [['authorization', `Bearer ${key}`], ['x-request-id', id]] });
    for (let i = 0; i < 50 && !lines.some((line) => line.reqId === id && line.msg === 'request'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const line = lines.find((candidate) => candidate.reqId === id && candidate.msg === 'request');
    assert.ok(line, `an access line for ${target}`);
    return line.url;
  };
  return { key, loggedUrlOf, lines };
}

test('DECISIONS §11: query values that look like keys are masked in the access line', async (t) => {
  const { key, loggedUrlOf, lines } = await serverWithLog(t);
  const cases: [what: string, target: string, logged: string][] = [
    ['api_key', `${V1}/currencies?api_key=${key}&x=1`, `${V1}/currencies?api_key=[redacted]&x=1`],
    ['every key-like name, any case', `${V1}/currencies?APIKEY=a&key=b&Access_Key=c&token=d&access_token=e&x-api-key=f&n=1`,
      `${V1}/currencies?APIKEY=[redacted]&key=[redacted]&Access_Key=[redacted]&token=[redacted]&access_token=[redacted]&x-api-key=[redacted]&n=1`],
    ['a percent-encoded name', `${V1}/currencies?api%5Fkey=secret&n=2`, `${V1}/currencies?api%5Fkey=[redacted]&n=2`],
    ['a key under an innocent name', `${V1}/convert?from=USD&to=JPY&amount=1&q=${key}`, `${V1}/convert?from=USD&to=JPY&amount=1&q=[redacted]`],
    ['a key with its prefix percent-encoded', `${V1}/currencies?q=cr%5F${key.slice(3)}&n=3`, `${V1}/currencies?q=[redacted]&n=3`],
    ['a key with its prefix encoded twice', `${V1}/currencies?q=cr%255F${key.slice(3)}&n=5`, `${V1}/currencies?q=[redacted]&n=5`],
    ['key-like names as lists or with a parameter', `${V1}/currencies?api-key[]=a&api_key;v=b&n=6`, `${V1}/currencies?api-key[]=[redacted]&api_key;v=[redacted]&n=6`],
    ['a key given as a bare name', `${V1}/currencies?${key}&n=4`, `${V1}/currencies?[redacted]&n=4`],
    ['a key in the path', `${V1}/rates/${key}`, `${V1}/rates/[redacted]`],
    ['a key on an unknown path', `/nowhere/${key}?token=x`, '/nowhere/[redacted]?token=[redacted]'],
    ['nothing key-like', `${V1}/convert?from=USD&to=JPY&amount=1&monkey_business=`, `${V1}/convert?from=USD&to=JPY&amount=1&monkey_business=`],
  ];
  for (const [what, target, logged] of cases) {
    await t.test(`when the URL holds ${what}, then the access line shows ${logged}`, async () => {
      assert.equal(await loggedUrlOf(target), logged);
    });
  }
  await t.test('when all of these were logged, then no log line holds the key', () => {
    assert.ok(lines.length >= cases.length);
    assert.ok(!JSON.stringify(lines).includes(key.slice(3)));
  });
});

test('DECISIONS §11: a logged URL is cut at 2 KB', async (t) => {
  const { key, loggedUrlOf } = await serverWithLog(t);
  const base = `${V1}/currencies?pad=`;
  await t.test('when the URL is exactly 2048 characters, then it is logged whole', async () => {
    const target = base + 'a'.repeat(2048 - base.length);
    assert.equal(await loggedUrlOf(target), target);
  });
  await t.test('when the URL is 2049 characters or more, then its first 2048 are logged, then …', async () => {
    for (const length of [2049, 8000]) {
      const target = base + 'a'.repeat(length - base.length);
      assert.equal(await loggedUrlOf(target), target.slice(0, 2048) + '…', `${length} characters`);
    }
  });
  await t.test('when a key stands across the cut, then it is masked before the URL is cut', async () => {
    const head = `${V1}/currencies?pad=${'a'.repeat(2030 - base.length)}&q=`;
    const target = `${head}${key}&n=1`;
    assert.equal(await loggedUrlOf(target), `${head}[redacted]&n=1`);
    const longer = `${head}${key}&pad2=${'b'.repeat(100)}`;
    assert.equal(await loggedUrlOf(longer), `${head}[redacted]&pad2=${'b'.repeat(100)}`.slice(0, 2048) + '…');
  });
});
