import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WEB_PAGE_CSP } from '../../src/http/hooks/page-guard.js';
import { WEB_ROOT } from '../../src/http/routes/web-page.js';
import { errorBody, JSON_TYPE } from '../helpers/http-expect.js';
import { rawRequest } from '../helpers/raw-http.js';
import { read, startTestServer } from '../helpers/test-server.js';

/**
 * The page at `/` and its assets, as HTTP sees them: no key needed, nothing counted,
 * the browser protections on every answer, and every other path still the unknown path's 404.
 */

const INDEX = readFileSync(join(WEB_ROOT, 'index.html'), 'utf8');
/** The files the built page names: its script, its stylesheet and its icon. */
const ASSETS = [...INDEX.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((match) => match[1]!).filter((url) => !url.startsWith('/docs') && !url.startsWith('/api/'));

test('when / and the assets it names are fetched without a key, then each is 200 with its type, the CSP of self, DENY framing, and nothing is counted', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const usedBefore = ((await read(await server.get('/api/v1/usage'))).json as { used: number }).used;
  assert.equal(usedBefore, 1);

  const page = await read(await server.get('/', { auth: false }));
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(page.text, INDEX);
  assert.equal(page.headers.get('content-security-policy'), WEB_PAGE_CSP);
  assert.match(WEB_PAGE_CSP, /^default-src 'self'; script-src 'self'; style-src 'self';/);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  assert.equal(page.headers.get('x-ratelimit-remaining'), null, 'no quota headers: not counted');

  assert.deepEqual(
    ASSETS.map((url) => url.replace(/-[\w-]{8}\./, '-HASH.')),
    ['/favicon.svg', '/assets/index-HASH.js', '/assets/index-HASH.css'],
  );
  const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
  for (const url of ASSETS) {
    const asset = await read(await server.get(url, { auth: false }));
    assert.equal(asset.status, 200, url);
    assert.equal(asset.headers.get('content-type'), types[url.split('.').pop()!], `${url}: type`);
    assert.equal(asset.text, readFileSync(join(WEB_ROOT, url), 'utf8'), `${url}: the built file`);
    assert.equal(asset.headers.get('content-security-policy'), WEB_PAGE_CSP, `${url}: CSP`);
    assert.equal(asset.headers.get('cache-control'), url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  }

  // Sent again with its ETag, the page is a 304 without a body.
  const again = await server.get('/', { auth: false, headers: { 'if-none-match': page.headers.get('etag')! } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), '');
  const head = await server.get('/', { auth: false, method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');

  const usedAfter = ((await read(await server.get('/api/v1/usage'))).json as { used: number }).used;
  assert.equal(usedAfter, 2, 'only the two /usage requests were counted');
});

test('when a path beside the page is asked for, then it is the unknown path\'s 404 as before; another method on / too', async (t) => {
  const server = await startTestServer(t);
  for (const path of ['/index.html', '/assets/', '/assets/nope.js', '/favicon.ico', '/src/main.ts', '/web/index.html', '/assets/..%2findex.html']) {
    const answer = await read(await server.get(path, { auth: false }));
    assert.equal(answer.status, 404, path);
    assert.equal(answer.text, JSON.stringify(errorBody(404, `Cannot GET ${path}`)), path);
    assert.equal(answer.headers.get('content-type'), JSON_TYPE, path);
  }
  // A target the router would take for `/`, though it is no path of the page; an absolute-form
  // target of `/` is that path (RFC 9112 §3.2.2), as for every route.
  const port = Number(new URL(server.url).port);
  const star = await rawRequest('127.0.0.1', port, { target: '*', method: 'GET', headers: [] });
  assert.equal(star.status, 404);
  assert.equal(star.headers['content-type'], JSON_TYPE);
  assert.equal((star.json as { error?: string }).error, 'Not Found');
  const page = await read(await server.get('/', { auth: false }));
  for (const target of ['http://example.com/', 'http://[::1]/']) {
    const answer = await rawRequest('127.0.0.1', port, { target, method: 'GET', headers: [] });
    assert.deepEqual([answer.status, answer.text], [200, page.text], target);
  }
  const post = await read(await server.get('/', { auth: false, method: 'POST' }));
  assert.equal(post.status, 404);
  assert.equal(post.text, JSON.stringify(errorBody(404, 'Cannot POST /')));
});
