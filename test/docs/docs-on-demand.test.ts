import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The reference is served by a second app built on the first request for it (lazy-api-docs.ts).
 * Whatever arrives first, and however many at once, each gets the answer the reference gives
 * afterwards; and what is passed on keeps this server's own headers and HTTP semantics.
 */
test('when the first requests for the document and the reference pages arrive together, then each gets the same answer as later requests', async (t) => {
  const server = await startTestServer(t);
  const paths = ['/api/v1/openapi.json', '/docs', '/docs/', '/docs/static/swagger-ui.css', '/docs/json'];
  const snapshot = async (path: string) => {
    const answer = await fetch(server.url + path, { redirect: 'manual' });
    return { path, status: answer.status, type: answer.headers.get('content-type'), body: Buffer.from(await answer.arrayBuffer()).toString('base64') };
  };
  const first = await Promise.all(paths.flatMap((path) => [snapshot(path), snapshot(path)]));
  const later = await Promise.all(paths.map(snapshot));
  for (const answer of first) {
    assert.deepEqual(answer, later.find(({ path }) => path === answer.path), `${answer.path}: the first answers are the later ones`);
  }
  assert.deepEqual(later.map(({ status }) => status), [200, 200, 200, 200, 200]);
  assert.equal(JSON.parse(Buffer.from(later[0]!.body, 'base64').toString()).openapi, '3.1.0');
});

test('when the reference is asked with HEAD, for a redirect, or for a page it lacks, then the answer is as the server gives it everywhere', async (t) => {
  const server = await startTestServer(t);
  const get = await fetch(`${server.url}/docs`);
  const head = await fetch(`${server.url}/docs`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String((await get.arrayBuffer()).byteLength), 'HEAD: the length of the GET answer');
  assert.equal(await head.text(), '');

  // A redirect has no body, hence no content type; this server's own headers are on it.
  const redirect = await fetch(`${server.url}/docs/static/index.html`, { redirect: 'manual', headers: { 'x-request-id': 'docs-redirect-1' } });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('location'), '/docs/');
  assert.equal(redirect.headers.get('content-type'), null);
  assert.equal(redirect.headers.get('x-request-id'), 'docs-redirect-1');
  assert.equal(redirect.headers.get('x-content-type-options'), 'nosniff');

  const missing = await fetch(`${server.url}/docs/nothing-here`, { headers: { 'x-request-id': 'docs-missing-1' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('x-request-id'), 'docs-missing-1');
  assert.deepEqual(await missing.json(), { statusCode: 404, error: 'Not Found', message: 'Cannot GET /docs/nothing-here' });
});
