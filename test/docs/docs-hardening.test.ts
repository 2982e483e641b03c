import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBrowser, skipWithoutChromium } from '../helpers/chromium.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * DECISIONS §11: /docs sends a Content-Security-Policy allowing its own origin only, and
 * X-Frame-Options: DENY (inline styles stay allowed: Swagger UI writes one, and a style runs no
 * code); only /docs and its own assets are served there: a `.` or `..` segment,
 * written out or percent-encoded, is a 404 in the spec's shape, never another route or file,
 * and never counted.
 */

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

test('when a page or an asset under /docs is fetched, then it carries the self-only CSP and X-Frame-Options: DENY', async (t) => {
  const server = await startTestServer(t);
  const paths = [
    '/docs',
    '/docs/',
    '/docs/static/swagger-ui.css',
    '/docs/static/swagger-ui-bundle.js',
    '/docs/static/swagger-initializer.js',
    '/docs/static/index.css',
    '/docs/static/favicon-32x32.png',
    '/docs/static/oauth2-redirect.html',
    '/docs/json',
    '/docs/static/index.html',
  ];
  for (const path of paths) {
    const answer = await fetch(server.url + path, { redirect: 'manual' });
    await answer.arrayBuffer();
    assert.equal(answer.status, path === '/docs/static/index.html' ? 302 : 200, path);
    assert.equal(answer.headers.get('content-security-policy'), CSP, `${path}: CSP`);
    assert.equal(answer.headers.get('x-frame-options'), 'DENY', `${path}: X-Frame-Options`);
  }
});

test('when a path under /docs holds a dot segment, written or percent-encoded, or an encoded NUL, then it is a 404 in the spec shape, not counted', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const { hostname, port } = new URL(server.url);
  const targets = [
    '/docs/../api/v1/convert?from=USD&to=JPY&amount=1',
    '/docs/static/../../api/v1/convert?from=USD&to=JPY&amount=1',
    '/docs/static/../index.html',
    '/docs/static/./swagger-ui.css',
    '/docs/static/%2e%2e/%2e%2e/package.json',
    '/docs/static/%2E%2E/%2E%2E/package.json',
    '/docs/static/.%2e/swagger-ui.css',
    '/docs/static/%2e/swagger-ui.css',
    '/docs/static/..%2f..%2fpackage.json',
    '/docs/static/..%5c..%5cpackage.json',
    '/docs/%2e%2e/metrics',
    '/docs/%2E%2E/api/v1/currencies',
    '/docs/static/swagger-ui.css%00',
    '/docs/static/%00.css',
  ];
  for (const target of targets) {
    const answer = await rawRequest(hostname, Number(port), { target, headers: [['authorization', `Bearer ${server.key}`]] });
    const path = target.split('?')[0]!;
    assert.equal(answer.status, 404, `${target}: ${answer.text.slice(0, 200)}`);
    assert.equal(answer.text, JSON.stringify({ statusCode: 404, message: `Cannot GET ${path}`, error: 'Not Found' }), target);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', target);
  }
  const after = await server.get('/api/v1/currencies');
  await after.arrayBuffer();
  assert.equal(after.headers.get('x-ratelimit-remaining'), '999', 'none of them counted; this request is the first');
});

test('when /docs/static/index.html is asked with a query, then one redirect leads to the page', async (t) => {
  const server = await startTestServer(t);
  const redirect = await fetch(`${server.url}/docs/static/index.html?x=1`, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('location'), '/docs/');
  const page = await fetch(new URL(redirect.headers.get('location')!, server.url), { redirect: 'manual' });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await page.text(), /<title>currency-rates API reference<\/title>/);
});

test(
  'when /docs is opened in Chromium, then it renders under its CSP with no violation, and a script injected inline does not run',
  { skip: skipWithoutChromium(), timeout: 60_000 },
  async (t) => {
    const server = await startTestServer(t, { ingest: ['hist.csv'] });
    const { page, close } = await openBrowser(t, server.url);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${server.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    // The models and a live answer use more of Swagger UI's rendering.
    const operation = page.locator('#operations-Rates-getLatestRates');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.responses-inner').first().waitFor();
    await page.waitForTimeout(300);
    assert.deepEqual(violations, [], 'Swagger UI needs nothing the policy refuses');

    // A string, so this file needs no DOM types: what a script injected into the page would do.
    const ran = await page.evaluate(`(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.appendChild(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return window.__inlineRan === true;
    })()`);
    assert.equal(ran, false, 'an inline script is refused');
    await page.waitForTimeout(100);
    assert.ok(violations.some((text) => /script-src/.test(text)), `the refusal is reported: ${violations.join(' | ')}`);
    await close(); // before the server stops: see openBrowser
  },
);
