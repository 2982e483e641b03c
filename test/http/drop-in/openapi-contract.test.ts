import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DROP_IN_CURRENCIES, startDropInServer } from '../../helpers/drop-in-expect.js';
import { appWithBackendDown } from '../../helpers/backend-down.js';
import { answerOf, contract, type Json } from '../../helpers/openapi-contract.js';
import { read } from '../../helpers/test-server.js';

/**
 * The drop-in paths in the OpenAPI document (DECISIONS §16): tagged apart from the native API,
 * shown by /docs, and a contract: a real answer for every status each documents matches the
 * documented body (the peer's error shapes included) and headers.
 */

const TAGS = ['Frankfurter v1', 'Frankfurter v2', 'Open Exchange Rates'];

/** For each drop-in path: a URL answering 200, and URLs for its documented refusals. */
const URLS: Record<string, { ok: string; invalid?: string; notFound?: string }> = {
  '/v1/latest': { ok: '/v1/latest?to=USD', invalid: '/v1/latest?from=US', notFound: '/v1/latest?to=SEK' },
  '/v1/currencies': { ok: '/v1/currencies' },
  '/v1/{date}': { ok: '/v1/2026-04-12', invalid: '/v1/2026-02-30', notFound: '/v1/2001-01-01' },
  '/v1/{start}..{end}': { ok: '/v1/2026-04-10..?to=GBP', invalid: '/v1/2026-04-13..2026-04-10', notFound: '/v1/2001-01-01..2001-02-01' },
  '/v2/rates': { ok: '/v2/rates?base=USD', invalid: '/v2/rates?to=2026-04-13', notFound: '/v2/rates?date=2001-01-01' },
  '/v2/rate/{base}/{quote}': { ok: '/v2/rate/EUR/USD', invalid: '/v2/rate/EUR/US', notFound: '/v2/rate/EUR/USD?date=2001-01-01' },
  '/v2/currencies': { ok: '/v2/currencies' },
  '/v2/currency/{code}': { ok: '/v2/currency/USD', notFound: '/v2/currency/XYZ' },
  '/v2/providers': { ok: '/v2/providers' },
  '/api/latest.json': { ok: '/api/latest.json', invalid: '/api/latest.json?base=XYZ', notFound: '/api/latest.json?symbols=SEK' },
  '/api/historical/{date}.json': { ok: '/api/historical/2026-04-10.json', invalid: '/api/historical/2026-04-31.json', notFound: '/api/historical/2001-01-01.json' },
  '/api/time-series.json': { ok: '/api/time-series.json?start=2026-04-01&end=2026-04-13', invalid: '/api/time-series.json', notFound: '/api/time-series.json?start=2001-01-01&end=2001-01-31' },
  '/api/convert/{value}/{from}/{to}': { ok: '/api/convert/10/EUR/GBP', invalid: '/api/convert/0/EUR/GBP', notFound: '/api/convert/10/EUR/SEK' },
  '/api/usage.json': { ok: '/api/usage.json' },
  '/api/currencies.json': { ok: '/api/currencies.json' },
};

test('the drop-in paths in the OpenAPI document and /docs', async (t) => {
  // SEK is served but hist.csv has no rate for it: "latest" with it is a 404.
  const server = await startDropInServer(t, { env: { CURRENCIES: `${DROP_IN_CURRENCIES},SEK` } });
  const doc = (await read(await server.get('/api/v1/openapi.json', { auth: false }))).json as Json;
  const dropIn = Object.entries<Json>(doc.paths).filter(([, item]) => TAGS.includes(item.get.tags[0]));

  await t.test('when read, then every drop-in path is there, under its own tag, and no native one shares those tags', () => {
    assert.deepEqual(dropIn.map(([path]) => path).sort(), Object.keys(URLS).sort());
    assert.deepEqual(doc.tags.map((tag: Json) => tag.name).filter((name: string) => TAGS.includes(name)), TAGS);
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      if (path.startsWith('/api/v1/')) assert.ok(!TAGS.includes(item.get.tags[0]), `${path} stays with the native API`);
    }
    assert.deepEqual(doc.paths['/api/currencies.json'].get.security, [], 'currencies.json needs no key');
  });

  await t.test('when /docs is loaded, then it serves the reference of that document', async () => {
    const page = await server.get('/docs/', { auth: false });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    await page.arrayBuffer();
  });

  await t.test('when every drop-in path answers each documented status for real, then each answer matches the document', async (t) => {
    const check = contract(doc);
    const get = async (path: string, url: string, init?: Parameters<typeof server.get>[1]) => {
      const answer = await answerOf(await server.get(url, init));
      check.check(path, answer, `GET ${url}`);
      return answer;
    };
    for (const [path, urls] of Object.entries(URLS)) {
      const ok = await get(path, urls.ok);
      assert.equal(ok.status, 200, `${urls.ok}: ${ok.text}`);
      const etag = path === '/api/usage.json' ? '*' : ok.headers.get('etag')!;
      assert.equal((await get(path, urls.ok, { headers: { 'if-none-match': etag } })).status, 304);
      if (urls.invalid) assert.equal((await get(path, urls.invalid)).status, path.startsWith('/api/') ? 400 : 422, urls.invalid);
      if (urls.notFound) assert.equal((await get(path, urls.notFound)).status, 404, urls.notFound);
      if (path !== '/api/currencies.json') assert.equal((await get(path, urls.ok, { auth: false })).status, 401);
    }

    const tight = await startDropInServer(t, { env: { QUOTA_LIMIT: '1' } });
    await (await tight.get('/api/v1/usage')).arrayBuffer();
    for (const [path, urls] of Object.entries(URLS)) {
      if (path === '/api/currencies.json') continue;
      const answer = await answerOf(await tight.get(urls.ok));
      assert.equal(answer.status, 429);
      check.check(path, answer, `GET ${urls.ok} over quota`);
    }

    // 503: the app factory over a quota store that cannot be reached.
    const down = await appWithBackendDown(t);
    for (const [path, urls] of Object.entries(URLS)) {
      if (path === '/api/currencies.json') continue;
      const answer = await down.get(urls.ok);
      assert.equal(answer.status, 503, `${urls.ok}: ${answer.text}`);
      check.check(path, answer, `GET ${urls.ok} with the backend down`);
    }

    const documented = dropIn.flatMap(([path, item]) => Object.keys(item.get.responses).map((status) => `${path} ${status}`));
    assert.deepEqual(
      documented.filter((pair) => !check.seen.has(pair)),
      [],
      'every documented status of every drop-in path was seen for real',
    );
  });
});
