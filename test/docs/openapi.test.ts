import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { renderOpenApiDocument } from '../../scripts/write-openapi.js';
import { appWithBackendDown } from '../helpers/backend-down.js';
import { answerOf, contract, type Json } from '../helpers/openapi-contract.js';
import { read, startTestServer } from '../helpers/test-server.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

/**
 * The OpenAPI document: valid OpenAPI 3.1 by a maintained validator, the nine endpoints with
 * their parameters, and a contract: real answers of every endpoint, for every status the document
 * lists, match the documented body schema and carry the documented headers.
 */

const V1 = '/api/v1';
const ENDPOINTS = [
  `${V1}/rates/latest`,
  `${V1}/rates/{date}`,
  `${V1}/rates/{start}..{end}`,
  `${V1}/fluctuation/{start}..{end}`,
  `${V1}/convert`,
  `${V1}/convert/bulk`,
  `${V1}/currencies`,
  `${V1}/sources`,
  `${V1}/usage`,
];
/** A URL of the endpoint documented as `path` that answers 200 on hist.csv. */
const urlOf = (path: string) => path.replace('{date}', '2026-04-13').replace('{start}..{end}', '2026-04-10..2026-04-13');

test('the OpenAPI document', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const served = await read(await server.get(`${V1}/openapi.json`, { auth: false }));
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'application/json; charset=utf-8');
  const doc = served.json as Json;

  await t.test('when served without a key, then it is valid OpenAPI 3.1 and was not counted', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    assert.equal(validator.version, '3.1');
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    const counted = await read(await server.get(`${V1}/currencies`));
    assert.equal(counted.headers.get('x-ratelimit-remaining'), '999', 'the document request did not count');
  });

  await t.test('when compared with openapi.json at the root, then it is the same (run "npm run openapi" after changing the API)', async () => {
    const committed = JSON.parse(await readFile(`${REPO_ROOT}openapi.json`, 'utf8'));
    assert.deepEqual(committed, doc);
    assert.equal(await renderOpenApiDocument(), await renderOpenApiDocument(), 'the script writes the same bytes every time');
  });

  await t.test('when read, then it lists the nine endpoints with their parameters and the bearer scheme', () => {
    for (const path of ENDPOINTS) assert.ok(doc.paths[path]?.get, `GET ${path} is documented`);
    const parameters = (path: string) =>
      (doc.paths[path].get.parameters as Json[]).filter((p) => p.in !== 'header').map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`);
    assert.deepEqual(parameters(`${V1}/rates/latest`), ['query:base', 'query:symbols', 'query:source', 'query:precision']);
    assert.deepEqual(parameters(`${V1}/rates/{date}`), ['path:date!', 'query:base', 'query:symbols', 'query:source', 'query:precision']);
    assert.deepEqual(parameters(`${V1}/rates/{start}..{end}`), ['path:start!', 'path:end!', 'query:base', 'query:symbols', 'query:source', 'query:precision', 'query:format']);
    assert.deepEqual(parameters(`${V1}/fluctuation/{start}..{end}`), ['path:start!', 'path:end!', 'query:base', 'query:symbols', 'query:source', 'query:precision']);
    assert.deepEqual(parameters(`${V1}/convert`), ['query:from!', 'query:to!', 'query:amount!', 'query:date', 'query:source', 'query:precision']);
    assert.deepEqual(parameters(`${V1}/convert/bulk`), ['query:from!', 'query:amount!', 'query:to!', 'query:date', 'query:source', 'query:precision']);
    assert.ok(doc.paths[`${V1}/rates/{start}..{end}`].get.responses['200'].content['text/csv'], 'a range is documented as CSV too');
    assert.deepEqual(parameters(`${V1}/currencies`), []);

    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key created with `currency-rates keys create`',
    });
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.deepEqual(doc.paths['/health'].get.security, [], '/health needs no key');
    assert.equal(doc.paths[`${V1}/openapi.json`], undefined, 'the document does not list itself');

    const message = doc.components.schemas.BadRequest.properties.message;
    assert.deepEqual(message.oneOf.map((branch: Json) => branch.type), ['array', 'string'], '400: message is an array or a string');
    assert.equal(doc.components.schemas.QuotaExceeded.properties.error, undefined, '429: no error field');
    for (const status of ['200', '400', '404', '429']) {
      const headers = Object.keys(doc.paths[`${V1}/convert`].get.responses[status].headers);
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) assert.ok(headers.includes(name), `${status} documents ${name}`);
    }
    assert.ok(doc.paths[`${V1}/convert`].get.responses['429'].headers['Retry-After']);
  });

  await t.test('when every endpoint answers each documented status for real, then every answer matches the document', async (t) => {
    const check = contract(doc);
    const get = async (path: string, url: string, init?: Parameters<typeof server.get>[1]) => {
      const answer = await answerOf(await server.get(url, init));
      check.check(path, answer, `GET ${url}`);
      return answer;
    };

    const cases: [path: string, url: string, status: number][] = [
      [`${V1}/rates/latest`, `${V1}/rates/latest?base=usd&symbols=GBP,JPY`, 200],
      [`${V1}/rates/latest`, `${V1}/rates/latest?base=EURO&symbols=US`, 400],
      [`${V1}/rates/latest`, `${V1}/rates/latest?base=XYZ`, 400],
      [`${V1}/rates/latest`, `${V1}/rates/latest?symbols=SEK`, 404],
      [`${V1}/rates/{date}`, `${V1}/rates/2026-04-13?symbols=USD`, 200],
      [`${V1}/rates/{date}`, `${V1}/rates/2023-02-29`, 400],
      [`${V1}/rates/{date}`, `${V1}/rates/2026-04-11`, 404],
      [`${V1}/rates/{start}..{end}`, `${V1}/rates/2025-12-01..?symbols=BGN,USD`, 200],
      [`${V1}/rates/{start}..{end}`, `${V1}/rates/2026-04-13..2026-04-10`, 400],
      [`${V1}/rates/{start}..{end}`, `${V1}/rates/2026-04-10..?base=XYZ`, 400],
      [`${V1}/rates/{start}..{end}`, `${V1}/rates/2026-04-11..2026-04-12`, 404],
      [`${V1}/fluctuation/{start}..{end}`, `${V1}/fluctuation/2022-08-31..?base=USD`, 200],
      [`${V1}/fluctuation/{start}..{end}`, `${V1}/fluctuation/x..2026-04-10`, 400],
      [`${V1}/fluctuation/{start}..{end}`, `${V1}/fluctuation/2026-04-10..?symbols=XYZ`, 400],
      [`${V1}/fluctuation/{start}..{end}`, `${V1}/fluctuation/2026-04-14..`, 404],
      [`${V1}/convert`, `${V1}/convert?from=USD&to=JPY&amount=%2B100.5`, 200],
      [`${V1}/convert`, `${V1}/convert?from=USD&to=JPY&amount=1&date=2025-12-31`, 200],
      [`${V1}/convert`, `${V1}/convert?from=USD&to=JPY&amount=1&date=2026-04-11`, 404],
      [`${V1}/convert`, `${V1}/convert?from=US&to=JPY&amount=1e3`, 400],
      [`${V1}/convert`, `${V1}/convert?from=USD&to=JPY&amount=0`, 400],
      [`${V1}/convert`, `${V1}/convert?from=USD&to=SEK&amount=1`, 404],
      [`${V1}/convert/bulk`, `${V1}/convert/bulk?from=GBP&amount=250.50&to=USD,JPY,usd`, 200],
      [`${V1}/convert/bulk`, `${V1}/convert/bulk?from=GBP&amount=1&to=`, 400],
      [`${V1}/convert/bulk`, `${V1}/convert/bulk?from=GBP&amount=1&to=QQQ`, 400],
      [`${V1}/convert/bulk`, `${V1}/convert/bulk?from=GBP&amount=1&to=SEK`, 404],
      [`${V1}/currencies`, `${V1}/currencies`, 200],
      [`${V1}/sources`, `${V1}/sources`, 200],
      [`${V1}/usage`, `${V1}/usage`, 200],
    ];
    for (const [path, url, status] of cases) {
      const answer = await get(path, url);
      assert.equal(answer.status, status, `${url}: ${answer.text}`);
      if (status === 200) {
        // /usage counts itself, so its body (and ETag) is never the same twice; `*` matches any.
        const etag = path === `${V1}/usage` ? '*' : answer.headers.get('etag')!;
        assert.equal((await get(path, url, { headers: { 'if-none-match': etag } })).status, 304);
      }
    }
    for (const path of ENDPOINTS) {
      const url = urlOf(path);
      assert.equal((await get(path, url, { auth: false })).status, 401);
      assert.equal((await get(path, url, { headers: { authorization: 'Bearer cr_not-a-key' } })).status, 401);
    }
    assert.equal((await get('/health', '/health', { auth: false })).status, 200);
    assert.equal((await get('/ready', '/ready', { auth: false })).status, 200);

    // 429: a second server whose quota is one request.
    const tight = await startTestServer(t, { ingest: ['hist.csv'], env: { QUOTA_LIMIT: '1' } });
    await tight.get(`${V1}/currencies`);
    for (const path of ENDPOINTS) {
      const url = urlOf(path);
      const answer = await answerOf(await tight.get(url));
      assert.equal(answer.status, 429);
      check.check(path, answer, `GET ${url} over quota`);
    }

    // 503: the same app factory over stores whose quota backend and readiness fail.
    const down = await appWithBackendDown(t);
    for (const path of [...ENDPOINTS, '/ready']) {
      const url = urlOf(path);
      const answer = await down.get(url);
      assert.equal(answer.status, 503, `${url}: ${answer.text}`);
      check.check(path, answer, `GET ${url} with the backend down`);
    }

    // Answers documented once for the whole API.
    const refused = await answerOf(await server.get(`${V1}/convert`, { method: 'POST' }));
    assert.equal(refused.status, 405);
    check.checkShared(doc.components.responses.MethodNotAllowed, refused, 'POST /api/v1/convert');
    const unknown = await answerOf(await server.get(`${V1}/nowhere`));
    assert.equal(unknown.status, 404);
    check.checkShared({ content: { 'application/json': { schema: { $ref: '#/components/schemas/NotFound' } } } }, unknown, 'unknown path');

    // The drop-in paths (DECISIONS §16) have their own contract run: drop-in-openapi.test.ts.
    const native = Object.entries<Json>(doc.paths).filter(([path]) => !/^\/(v1|v2)\/|^\/api\/[^/]*\.json$|^\/api\/(historical|convert)\//.test(path));
    const documented = native.flatMap(([path, item]) => Object.keys(item.get.responses).map((status) => `${path} ${status}`));
    assert.deepEqual(
      documented.filter((pair) => !check.seen.has(pair)),
      [],
      'every documented status of every endpoint was seen for real',
    );
  });
});
