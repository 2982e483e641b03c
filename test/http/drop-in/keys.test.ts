import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../../src/domain/api-keys.js';
import { loadConfig } from '../../../src/config.js';
import { loggableUrl } from '../../../src/http/access-log.js';
import { openStores } from '../../../src/storage/open-stores.js';
import { answers, expectText, startDropInServer, usedBy } from '../../helpers/drop-in-expect.js';
import { read, type TestServer } from '../../helpers/test-server.js';

/**
 * DECISIONS §16's keys: Bearer everywhere, `app_id` on OXR paths, COMPAT_KEY for keyless
 * Frankfurter requests; every drop-in request counted once (usage.json and /api/v1/usage see it),
 * and every refusal in the peer's shape.
 */

const FRANKFURTER = ['/v1/latest', '/v1/2026-04-10', '/v1/2026-04-10..2026-04-13', '/v1/currencies', '/v2/rates', '/v2/rate/EUR/USD', '/v2/currencies', '/v2/currency/USD', '/v2/providers'];
const OXR = ['/api/latest.json', '/api/historical/2026-04-10.json', '/api/time-series.json?start=2026-04-10&end=2026-04-13', '/api/convert/1/EUR/USD', '/api/usage.json'];

const v1Error = (message: string) => JSON.stringify({ message });
const v2Error = (status: number, message: string) => JSON.stringify({ status, message });
const oxrError = (status: number, code: string, description: string) => JSON.stringify({ error: true, status, message: code, description });

/** The refusal each family gives, in its shape. */
function refusal(path: string, status: number, message: string, oxrCode: string): string {
  if (path.startsWith('/v1/')) return v1Error(message);
  if (path.startsWith('/v2/')) return v2Error(status, message);
  return oxrError(status, oxrCode, message);
}

/** A second key, named `name`, created while the server runs; resolves once the server knows it. */
async function addKey(server: TestServer, name: string): Promise<string> {
  const key = generateApiKey();
  const stores = await openStores(server.storeConfig);
  await stores.keys.create(name, hashApiKey(key), new Date());
  await stores.close();
  for (let tries = 0; tries < 100; tries++) {
    const answer = await fetch(`${server.url}/api/v1/currencies`, { headers: { authorization: `Bearer ${key}` } });
    await answer.arrayBuffer();
    if (answer.status === 200) return key;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server never learned the new key');
}

test('without COMPAT_KEY, every keyed drop-in path refuses a missing, malformed or unknown key', async (t) => {
  const server = await startDropInServer(t);
  for (const path of [...FRANKFURTER, ...OXR]) {
    await t.test(`when ${path} has no key, then 401`, async () => {
      const answer = await expectText(server.get(path, { auth: false }), 401, refusal(path, 401, 'Missing or malformed Authorization header', 'missing_app_id'));
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
    });
    await t.test(`when ${path} has an unknown Bearer key, then 401`, () =>
      answers(server.get(path, { auth: false, headers: { authorization: `Bearer ${generateApiKey()}` } }), 401, refusal(path, 401, 'Invalid API key', 'invalid_app_id')),
    );
    await t.test(`when ${path} has a malformed Authorization header, then 401`, () =>
      answers(server.get(path, { auth: false, headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, refusal(path, 401, 'Missing or malformed Authorization header', 'missing_app_id')),
    );
  }
  for (const path of OXR) {
    const join = path.includes('?') ? '&' : '?';
    await t.test(`when ${path} has an unknown app_id, then 401 invalid_app_id`, () =>
      answers(server.get(`${path}${join}app_id=nope`, { auth: false }), 401, oxrError(401, 'invalid_app_id', 'Invalid API key')),
    );
    await t.test(`when ${path} has the key as app_id, then 200`, async () => {
      const answer = await read(await server.get(`${path}${join}app_id=${server.key}`, { auth: false }));
      assert.equal(answer.status, 200, answer.text);
    });
    await t.test(`when ${path} has app_id twice, then 401 missing_app_id`, () =>
      answers(server.get(`${path}${join}app_id=${server.key}&app_id=${server.key}`, { auth: false }), 401, oxrError(401, 'missing_app_id', 'Missing or malformed Authorization header')),
    );
  }
  await t.test('when a Bearer key is refused, then a good app_id beside it does not stand in', () =>
    answers(server.get(`/api/latest.json?app_id=${server.key}`, { auth: false, headers: { authorization: 'Bearer wrong' } }), 401, oxrError(401, 'invalid_app_id', 'Invalid API key')),
  );
});

test('every drop-in request is counted exactly once against its key, and shows in usage', async (t) => {
  const server = await startDropInServer(t);
  const before = await usedBy(server.url, server.key);
  for (const path of [...FRANKFURTER, ...OXR]) await (await server.get(path)).arrayBuffer();
  await (await server.get('/v1/latest?to=XYZ')).arrayBuffer(); // a 422 counts as a 400 does
  await (await server.get('/api/currencies.json')).arrayBuffer(); // OXR's public list: never counted
  assert.equal(await usedBy(server.url, server.key), before + FRANKFURTER.length + OXR.length + 1 + 1);
});

test('with COMPAT_KEY, keyless Frankfurter requests are charged to the named key, once each', async (t) => {
  const server = await startDropInServer(t, { env: { COMPAT_KEY: 'test' } });
  const other = await addKey(server, 'someone else');
  const compatBefore = await usedBy(server.url, server.key);
  const otherBefore = await usedBy(server.url, other);

  for (const path of FRANKFURTER) {
    const answer = await read(await server.get(path, { auth: false }));
    assert.equal(answer.status, 200, `${path}: ${answer.text}`);
    assert.ok(answer.headers.get('x-ratelimit-remaining'), `${path} carries the charged key's X-RateLimit headers`);
  }
  // A Bearer key, when sent, is charged instead; OXR paths still need a key of their own.
  await (await server.get('/v2/rate/EUR/USD', { auth: false, headers: { authorization: `Bearer ${other}` } })).arrayBuffer();
  await expectText(server.get('/api/latest.json', { auth: false }), 401, oxrError(401, 'missing_app_id', 'Missing or malformed Authorization header'));
  await expectText(server.get('/v1/latest', { auth: false, headers: { authorization: 'Bearer wrong' } }), 401, v1Error('Invalid API key'));

  assert.equal(await usedBy(server.url, server.key), compatBefore + FRANKFURTER.length + 1, 'COMPAT_KEY charged once per keyless request');
  assert.equal(await usedBy(server.url, other), otherBefore + 1 + 1, 'the Bearer key charged for its own request');
});

test('when COMPAT_KEY names no single active key, then keyless Frankfurter requests are refused', async (t) => {
  const server = await startDropInServer(t, { env: { COMPAT_KEY: 'shared' } });
  await expectText(server.get('/v1/latest', { auth: false }), 401, v1Error('Missing or malformed Authorization header'), 'no key named so');
  await addKey(server, 'shared');
  const answer = await read(await server.get('/v1/latest', { auth: false }));
  assert.equal(answer.status, 200, 'one key named so: charged to it');
  await addKey(server, 'shared');
  await expectText(server.get('/v2/rates', { auth: false }), 401, v2Error(401, 'Missing or malformed Authorization header'), 'two keys named so: which one is not guessed');
});

test('when a quota is used up, then 429 in each peer\'s shape, with Retry-After', async (t) => {
  const server = await startDropInServer(t, { env: { QUOTA_LIMIT: '2' } });
  for (let i = 0; i < 2; i++) await (await server.get('/api/v1/usage')).arrayBuffer();
  const message = 'Rate limit exceeded: 2 requests per 30-day period';
  for (const path of ['/v1/latest', '/v2/rates', '/api/latest.json']) {
    const answer = await expectText(server.get(path), 429, refusal(path, 429, message, 'access_restricted'), path);
    assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
  }
});

test('when an app_id is in a logged URL, then its value is masked, a key or not', () => {
  assert.equal(loggableUrl('/api/latest.json?app_id=0123456789abcdef&base=EUR'), '/api/latest.json?app_id=[redacted]&base=EUR');
  assert.equal(loggableUrl(`/api/latest.json?appId=${generateApiKey()}`), '/api/latest.json?appId=[redacted]');
});

test('when COMPAT_KEY is set, then it must read as a key name', () => {
  assert.equal(loadConfig({ COMPAT_KEY: 'sure app' }).compatKey, 'sure app');
  assert.equal(loadConfig({}).compatKey, undefined);
  assert.throws(() => loadConfig({ COMPAT_KEY: 'two\nlines' }), /COMPAT_KEY: must be the name of a key/);
});

test('when a drop-in path is sent another method, then 405 before any key, as on the native API', async (t) => {
  const server = await startDropInServer(t);
  for (const path of ['/v1/latest', '/v2/rate/EUR/USD', '/api/latest.json', '/api/currencies.json']) {
    const answer = await read(await server.get(path, { method: 'POST', auth: false }));
    assert.equal(answer.status, 405, path);
    assert.equal(answer.headers.get('allow'), 'GET, HEAD');
  }
  const before = await usedBy(server.url, server.key);
  const head = await server.get('/api/latest.json', { method: 'HEAD' });
  assert.equal(head.status, 200, 'HEAD answers as GET');
  assert.equal(await usedBy(server.url, server.key), before + 2, 'and counts as GET');
});
