import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSON_TYPE, remainingOf } from '../helpers/http-expect.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { FIXTURES, read, startTestApp } from '../helpers/test-server.js';

/** DECISIONS §7 on rate answers: content type, ETag and 304, HEAD, CORS. */

const V1 = '/api/v1';
const OK_PATHS = [
  `${V1}/rates/latest`,
  `${V1}/rates/latest?base=usd&symbols=JPY,GBP`,
  `${V1}/rates/2026-04-13`,
  `${V1}/convert?from=USD&to=JPY&amount=10`,
  `${V1}/convert/bulk?from=USD&amount=10&to=JPY,GBP`,
  `${V1}/currencies`,
];
const KNOWN_PATHS = [`${V1}/rates/latest`, `${V1}/rates/2026-04-13`, `${V1}/convert`, `${V1}/convert/bulk`, `${V1}/currencies`];

test('content type and ETag', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  for (const path of OK_PATHS) {
    await t.test(`when GET ${path} succeeds, then Content-Type is exactly "${JSON_TYPE}"`, async () => {
      const answer = await read(await server.get(path));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('content-type'), JSON_TYPE);
    });
  }
  for (const path of OK_PATHS) {
    await t.test(`when GET ${path} is repeated with If-None-Match: its ETag, then 304, empty body, counted`, async () => {
      const first = await read(await server.get(path));
      const etag = first.headers.get('etag');
      assert.ok(etag, 'a 200 answer carries an ETag');
      const again = await read(await server.get(path, { headers: { 'if-none-match': etag } }));
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(remainingOf(again), remainingOf(first) - 1, 'a 304 counts against the quota');
      assert.equal(again.headers.get('x-ratelimit-limit'), '1000');
      assert.equal(again.headers.get('access-control-allow-origin'), '*');
      const third = await read(await server.get(path, { headers: { 'if-none-match': etag } }));
      assert.equal(remainingOf(third), remainingOf(first) - 2);
    });
  }
  await t.test('when If-None-Match holds another tag, then 200 with the body', async () => {
    const answer = await read(await server.get(`${V1}/rates/latest`, { headers: { 'if-none-match': '"not-the-tag"' } }));
    assert.equal(answer.status, 200);
    assert.ok(answer.text.startsWith('{"base":"EUR"'));
  });
  await t.test('when If-None-Match lists the tag among others or weak (W/), then 304 (weak comparison)', async () => {
    const etag = (await server.get(`${V1}/rates/latest`)).headers.get('etag') ?? '';
    for (const header of [`"x", ${etag}`, `W/${etag}`]) {
      const answer = await read(await server.get(`${V1}/rates/latest`, { headers: { 'if-none-match': header } }));
      assert.equal(answer.status, 304, header);
    }
  });
  await t.test('when two requests ask for different rate sets, then their ETags differ', async () => {
    const eur = (await server.get(`${V1}/rates/latest`)).headers.get('etag');
    const usd = (await server.get(`${V1}/rates/latest?base=USD`)).headers.get('etag');
    const day = (await server.get(`${V1}/rates/2026-04-10`)).headers.get('etag');
    assert.ok(eur && usd && day);
    assert.equal(new Set([eur, usd, day]).size, 3);
  });
});

test('when a day\'s rates are corrected, then conversions of it get new ETags, and the old ones no longer give 304', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const paths = [`${V1}/convert?from=USD&to=JPY&amount=10`, `${V1}/convert/bulk?from=GBP&amount=10&to=USD,JPY`, `${V1}/convert/bulk?from=GBP&amount=10&to=JPY`];
  const before = await Promise.all(paths.map(async (path) => (await server.get(path)).headers.get('etag') ?? ''));
  const stores = await openStores(server.storeConfig);
  try {
    // USD on 2026-04-13, the latest day: 1.1684 → 1.169.
    await runIngestion(stores.rates, ecb, { file: `${FIXTURES}hist-corrected.csv` });
  } finally {
    await stores.close();
  }
  const deadline = Date.now() + 5000;
  while ((await server.get(paths[0]!)).headers.get('etag') === before[0] && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const [i, path] of paths.entries()) {
    const answer = await read(await server.get(path, { headers: { 'if-none-match': before[i]! } }));
    if (path.includes('USD')) {
      assert.equal(answer.status, 200, path);
      assert.notEqual(answer.headers.get('etag'), before[i], path);
    } else {
      // GBP to JPY does not involve USD: the same bytes, the same ETag.
      assert.equal(answer.status, 304, path);
    }
  }
});

test('HEAD mirrors GET', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const mirrored = ['content-type', 'content-length', 'etag', 'access-control-allow-origin', 'x-ratelimit-limit', 'x-ratelimit-reset'];
  const paths = [...OK_PATHS, `${V1}/rates/latest?base=XX`, `${V1}/rates/2026-04-11`, `${V1}/convert?from=USD&to=QQQ&amount=1`];
  for (const path of paths) {
    await t.test(`when HEAD ${path} follows GET, then same status and headers, no body, and it counts`, async () => {
      const get = await read(await server.get(path));
      const head = await read(await server.get(path, { method: 'HEAD' }));
      assert.equal(head.status, get.status);
      assert.equal(head.text, '');
      for (const name of mirrored) assert.equal(head.headers.get(name), get.headers.get(name), name);
      assert.equal(remainingOf(head), remainingOf(get) - 1);
    });
  }
  await t.test('when HEAD carries the ETag, then 304 as GET does, stating no length or the 200\'s, never 0 (RFC 9110 §8.6)', async () => {
    for (const path of [`${V1}/rates/latest`, `${V1}/convert?from=USD&to=JPY&amount=10`, '/']) {
      const auth = path !== '/';
      const get = await read(await server.get(path, { auth }));
      const headers = { 'if-none-match': get.headers.get('etag')! };
      const [getAgain, head] = [await read(await server.get(path, { auth, headers })), await read(await server.get(path, { auth, headers, method: 'HEAD' }))];
      assert.deepEqual([getAgain.status, head.status, head.text, head.headers.get('etag')], [304, 304, '', get.headers.get('etag')], path);
      assert.ok([null, get.headers.get('content-length')].includes(head.headers.get('content-length')), `${path}: content-length ${head.headers.get('content-length')}`);
    }
  });
  await t.test('when HEAD comes without a key, then 401 with WWW-Authenticate and no body', async () => {
    const head = await read(await server.get(`${V1}/rates/latest`, { method: 'HEAD', auth: false }));
    assert.equal(head.status, 401);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('www-authenticate'), 'Bearer');
  });
});

test('CORS', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'], env: { QUOTA_LIMIT: '60' } });
  const origin = { origin: 'https://app.example' };
  const preflight = {
    ...origin,
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization,if-none-match',
  };
  const remaining = async () => remainingOf(await read(await server.get(`${V1}/currencies`, { headers: origin })));

  for (const path of [...KNOWN_PATHS, `${V1}/rates/latest?base=USD`]) {
    await t.test(`when OPTIONS ${path} comes without a key, then 204 allowing Authorization, not counted`, async () => {
      const before = await remaining();
      for (const auth of [false, true]) {
        const answer = await read(await server.get(path, { method: 'OPTIONS', auth, headers: preflight }));
        assert.equal(answer.status, 204);
        assert.equal(answer.text, '');
        assert.equal(answer.headers.get('access-control-allow-origin'), '*');
        const allowed = (answer.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
        assert.ok(allowed.includes('authorization'), `Access-Control-Allow-Headers: ${allowed.join(', ')}`);
        const methods = (answer.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
        assert.ok(methods.includes('GET'), `Access-Control-Allow-Methods: ${methods.join(', ')}`);
        assert.equal(answer.headers.get('access-control-allow-credentials'), null);
      }
      assert.equal(await remaining(), before - 1, 'only the probe counted');
    });
  }

  await t.test('when answers of every kind come back, then each has ACAO * and never Allow-Credentials', async () => {
    const etag = (await server.get(`${V1}/rates/latest`)).headers.get('etag') ?? '';
    const requests: [string, { method?: string; auth?: boolean; headers?: Record<string, string> }, number][] = [
      [`${V1}/rates/latest`, {}, 200],
      [`${V1}/rates/latest`, { headers: { 'if-none-match': etag } }, 304],
      [`${V1}/convert?from=1`, {}, 400],
      [`${V1}/rates/latest`, { auth: false }, 401],
      [`${V1}/rates/2026-04-11`, {}, 404],
      ['/nowhere', {}, 404],
      [`${V1}/currencies`, { method: 'DELETE' }, 405],
      [`${V1}/currencies`, { method: 'HEAD' }, 200],
    ];
    for (const [path, init, status] of requests) {
      const answer = await read(await server.get(path, { ...init, headers: { ...origin, ...init.headers } }));
      assert.equal(answer.status, status, `${init.method ?? 'GET'} ${path}`);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', `${status} ${path}`);
      assert.equal(answer.headers.get('access-control-allow-credentials'), null, `${status} ${path}`);
    }
    while ((await server.get(`${V1}/currencies`)).status !== 429);
    const limited = await read(await server.get(`${V1}/currencies`, { headers: origin }));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('access-control-allow-origin'), '*');
    assert.equal(limited.headers.get('access-control-allow-credentials'), null);
  });
});
