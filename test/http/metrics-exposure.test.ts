import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { isLoopbackHost } from '../../src/config.js';
import { errorBody, expectError } from '../helpers/http-expect.js';
import { read } from '../helpers/test-server.js';
import { startLoggedServer } from '../helpers/logged-server.js';

/**
 * DECISIONS §11: without METRICS_TOKEN, /metrics answers only while the server binds a loopback
 * address; on any other address it needs the token (or METRICS=off), and the start-up log says
 * which applies. Its answers are for a scraper, not for pages of other origins: no CORS header.
 */

/** The production server, started with `env` on a random port and a log the test reads. */
async function start(t: TestContext, env: Record<string, string>) {
  const { port, lines } = await startLoggedServer(t, env);
  const metricsLines = () => lines.filter((line) => line.msg.startsWith('/metrics'));
  return { url: `http://127.0.0.1:${port}`, metricsLines };
}

const TOKEN = 'scrape-token-0123456789';

test('when HOST is not a loopback address and METRICS_TOKEN is unset, then /metrics is an unknown path and the start-up log warns why', async (t) => {
  const { url, metricsLines } = await start(t, { HOST: '0.0.0.0' });
  const answer = await read(await fetch(`${url}/metrics`));
  assert.equal(answer.status, 404);
  assert.equal(answer.text, JSON.stringify(errorBody(404, 'Cannot GET /metrics')));
  await expectError(fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'Cannot GET /metrics');
  assert.deepEqual(metricsLines().map(({ level, msg }) => ({ level, msg })), [
    {
      level: 40,
      msg:
        '/metrics is not served: HOST 0.0.0.0 is not a loopback address and METRICS_TOKEN is unset ' +
        '(set METRICS_TOKEN to scrape it, or METRICS=off)',
    },
  ]);
});

test('when HOST is not a loopback address and METRICS_TOKEN is set, then /metrics answers the token only, and the log says so', async (t) => {
  const { url, metricsLines } = await start(t, { HOST: '0.0.0.0', METRICS_TOKEN: TOKEN });
  await expectError(fetch(`${url}/metrics`), 401, 'Missing or malformed Authorization header');
  const scraped = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(scraped.status, 200);
  assert.match(await scraped.text(), /http_requests_total/);
  assert.deepEqual(metricsLines().map(({ level, msg }) => ({ level, msg })), [
    { level: 30, msg: '/metrics needs METRICS_TOKEN as a bearer token' },
  ]);
});

test('when HOST is a loopback address and METRICS_TOKEN is unset, then /metrics answers without a token, and the log says why', async (t) => {
  const { url, metricsLines } = await start(t, { HOST: '127.0.0.1' });
  const scraped = await fetch(`${url}/metrics`);
  assert.equal(scraped.status, 200);
  assert.match(await scraped.text(), /http_requests_total/);
  assert.deepEqual(metricsLines().map(({ level, msg }) => ({ level, msg })), [
    { level: 30, msg: '/metrics answers without a token: HOST 127.0.0.1 is a loopback address (set METRICS_TOKEN before binding another)' },
  ]);
});

test('when METRICS=off, then the log says /metrics is off', async (t) => {
  const { url, metricsLines } = await start(t, { HOST: '0.0.0.0', METRICS: 'off' });
  await expectError(fetch(`${url}/metrics`), 404, 'Cannot GET /metrics');
  assert.deepEqual(metricsLines().map(({ level, msg }) => ({ level, msg })), [{ level: 30, msg: '/metrics is off (METRICS=off)' }]);
});

test('when /metrics answers, with or without a token, then it carries no CORS header, while the API still does', async (t) => {
  const open = await start(t, { HOST: '127.0.0.1' });
  const guarded = await start(t, { HOST: '127.0.0.1', METRICS_TOKEN: TOKEN });
  const answers = [
    await fetch(`${open.url}/metrics`),
    await fetch(`${guarded.url}/metrics`),
    await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }),
    await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } }),
  ];
  assert.deepEqual(answers.map((answer) => answer.status), [200, 401, 200, 401]);
  for (const answer of answers) {
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
    assert.equal(answer.headers.get('access-control-expose-headers'), null);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', 'the other common headers stay');
    await answer.arrayBuffer();
  }
  const api = await fetch(`${open.url}/api/v1/currencies`);
  assert.equal(api.headers.get('access-control-allow-origin'), '*');
});

test('when HOST names the loopback interface in any usual spelling, then it counts as loopback; any other address does not', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com', '::ffff:10.0.0.1', '127.0.0.1.example.com']) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});
