import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { HTTP_LIMITS, type HttpLimits } from '../../src/http/limits.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { startServer } from '../../src/server.js';
import { openStores } from '../../src/storage/open-stores.js';
import { serviceEnv } from '../helpers/cli.js';
import { MSG } from '../helpers/http-expect.js';
import { rawRequest, socketExchange, type SocketExchange } from '../helpers/raw-http.js';
import { spawnServer, withTimeout } from '../helpers/server-process.js';
import { FIXTURES, tempDir } from '../helpers/test-server.js';
import { freshTestStores } from '../helpers/test-backend.js';

/**
 * Limits: what is too long, too large or too slow is refused with a JSON answer in the
 * spec's error shape — never an empty body, a reset or a hang — and a flood of idle connections
 * does not exhaust memory. The limits are those of src/http/limits.ts (HTTP_LIMITS).
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** The production server on its own store, optionally with other HTTP limits (timeouts short enough to test). */
async function startServerWith(t: TestContext, httpLimits?: HttpLimits) {
  const backend = await freshTestStores(t);
  const stores = await openStores(backend.storeConfig);
  const key = generateApiKey();
  await stores.keys.create('limits', hashApiKey(key), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  await stores.close();
  const config = loadConfig({ ...backend.env, PORT: '0', HOST: '127.0.0.1', INGEST_ON_EMPTY: 'off', INGEST_SCHEDULE: 'off', LOG_LEVEL: 'silent' });
  const server = await startServer(config, pino({ level: 'silent' }), undefined, { httpLimits });
  backend.beforeCleanup(() => server.close());
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port, key };
}

function assertJsonError(answer: { status: number | undefined; headers: Record<string, string | string[] | undefined>; body: string }, status: number, message: string | RegExp, what: string) {
  assert.equal(answer.status, status, `${what}: status; got ${answer.body.slice(0, 200)}`);
  assert.equal(answer.headers['content-type'], JSON_TYPE, `${what}: content type`);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  // Every answer, even one Node's parser refused before Fastify saw a request (docs/api.md).
  assert.match(String(answer.headers['x-request-id']), /^[\w.:-]{1,128}$/, `${what}: a request id`);
  assert.equal(answer.headers['access-control-allow-origin'], '*', `${what}: CORS`);
  assert.match(String(answer.headers['access-control-expose-headers']), /X-Request-Id/, `${what}: exposed headers`);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ['statusCode', 'message', 'error'], `${what}: the spec's error shape`);
  assert.equal(body.statusCode, status);
  if (typeof message === 'string') assert.equal(body.message, message, what);
  else assert.match(String(body.message), message, what);
}

const viaSocket = (e: SocketExchange) => ({ status: e.status, headers: e.headers, body: e.body });
const viaClient = (a: { status: number; headers: Record<string, string | string[] | undefined>; text: string }) => ({ status: a.status, headers: a.headers, body: a.text });

const TOO_LONG = `The URL is longer than ${HTTP_LIMITS.maxUrlLength} characters`;
const HEADERS_TOO_LARGE = `The request line and headers are larger than ${HTTP_LIMITS.maxHeaderBytes} bytes`;

test('when URLs, paths, query strings or headers are oversized, then the answer is a JSON 414 or 431 in the spec\'s error shape, before any key is checked', async (t) => {
  const { port, key } = await startServerWith(t);
  const auth: [string, string][] = [['authorization', `Bearer ${key}`]];
  const get = (target: string, headers: [string, string][] = auth) => rawRequest('127.0.0.1', port, { target, headers }).then(viaClient);

  // The boundary: a target of exactly the limit is served, one more character is not.
  const pad = (prefix: string, length: number) => prefix + 'a'.repeat(length - prefix.length);
  assertJsonError(await get(pad('/x', HTTP_LIMITS.maxUrlLength)), 404, `Cannot GET ${pad('/x', HTTP_LIMITS.maxUrlLength)}`, 'a path of exactly the limit');
  assertJsonError(await get(pad('/x', HTTP_LIMITS.maxUrlLength + 1)), 414, TOO_LONG, 'one character more');

  const cases: [string, string][] = [
    ['a 20 KB path', `/api/v1/${'p'.repeat(20_000)}`],
    ['a 20 KB date parameter', `/api/v1/rates/${'2'.repeat(20_000)}`],
    ['a 20 KB query string', `/api/v1/convert?from=USD&to=JPY&amount=${'1'.repeat(20_000)}`],
    ['a 100 KB URL (past the parser\'s own limit)', `/api/v1/rates/latest?symbols=${'USD,'.repeat(25_000)}USD`],
  ];
  for (const [what, target] of cases) {
    assertJsonError(await get(target), 414, TOO_LONG, what);
    assertJsonError(await get(target, []), 414, TOO_LONG, `${what}, without a key`);
  }

  // Headers: Node's parser refuses them; the answer is still the spec's JSON.
  assertJsonError(await get('/api/v1/currencies', [...auth, ['x-big', 'v'.repeat(40_000)]]), 431, HEADERS_TOO_LARGE, 'a 40 KB header');
  const many = Array.from({ length: 400 }, (_, i): [string, string] => [`x-h${i}`, 'v'.repeat(100)]);
  assertJsonError(await get('/api/v1/currencies', [...auth, ...many]), 431, HEADERS_TOO_LARGE, '400 headers of 100 bytes');
  const socket = await socketExchange(port, [`GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nX-Big: ${'v'.repeat(40_000)}\r\n\r\n`]);
  assertJsonError(viaSocket(socket), 431, HEADERS_TOO_LARGE, 'a 40 KB header on a raw socket');
  assert.equal(socket.headers.connection, 'close', 'the connection is closed after a refused request');
  assert.ok(socket.closed, 'and the server closes it');

  // Below the limits, large requests are simply served.
  const big = await get('/api/v1/currencies', [...auth, ['x-big', 'v'.repeat(20_000)]]);
  assert.equal(big.status, 200, 'a 20 KB header is within the limit');
});

test('when query strings are huge but within the URL limit, then they get the spec\'s answers: a 400 listing the failed rules, or an exact 200', async (t) => {
  const { port, key } = await startServerWith(t);
  const get = (target: string) => rawRequest('127.0.0.1', port, { target, headers: [['authorization', `Bearer ${key}`]] }).then(viaClient);
  const bulkTargets = Array.from({ length: 1500 }, () => 'USD').join(',');
  assertJsonError(await get(`/api/v1/convert/bulk?from=EUR&amount=1&to=${bulkTargets}`), 400, /./, '1,500 bulk targets');
  assert.deepEqual(JSON.parse((await get(`/api/v1/convert/bulk?from=EUR&amount=1&to=${bulkTargets}`)).body).message, [MSG.toMax]);
  const repeated = Array.from({ length: 800 }, () => 'from=USD').join('&');
  const answer = await get(`/api/v1/convert?${repeated}&to=JPY&amount=1`);
  assert.deepEqual(JSON.parse(answer.body), { statusCode: 400, message: [MSG.from], error: 'Bad Request' }, 'a parameter given 800 times');
  // DECISIONS §11: at most 30 digits before the point and 12 after.
  const huge = await get(`/api/v1/convert?from=EUR&to=EUR&amount=9${'8'.repeat(7000)}.5`);
  assert.deepEqual(JSON.parse(huge.body), { statusCode: 400, message: [MSG.amount], error: 'Bad Request' }, 'a 7,000-digit amount is refused');
  const longest = `${'9'.repeat(30)}.${'8'.repeat(12)}`;
  const exact = await get(`/api/v1/convert?from=EUR&to=EUR&amount=${longest}`);
  assert.equal(exact.status, 200, exact.body.slice(0, 200));
  assert.equal(JSON.parse(exact.body).result, `${'9'.repeat(30)}.888889`, 'the longest amount converts, rounded once half-up');
});

test('when requests are malformed HTTP — garbage, a lower-case method, smuggling headers, no Host, a bad escape — then the answer is a JSON 400 and the connection is closed', async (t) => {
  const { port } = await startServerWith(t);
  const cases: [string, string, RegExp][] = [
    ['garbage', 'HELLO THERE\r\n\r\n', /^Malformed HTTP request$/],
    ['a lower-case method', 'get /api/v1/currencies HTTP/1.1\r\nHost: x\r\n\r\n', /^Malformed HTTP request$/],
    ['Content-Length with Transfer-Encoding', 'GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', /^Malformed HTTP request$/],
    ['two Content-Lengths', 'GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', /^Malformed HTTP request$/],
    ['a space in a header name', 'GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', /^Malformed HTTP request$/],
    ['a bare LF line end', 'GET /api/v1/currencies HTTP/1.1\nHost: x\n\n', /^Malformed HTTP request$/],
    ['HTTP/1.1 without Host', 'GET /api/v1/currencies HTTP/1.1\r\nConnection: close\r\n\r\n', /^An HTTP\/1\.1 request needs a Host header$/],
    ['a bad escape in the path', 'GET /api/v1/rates/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /^Malformed URL: the path holds an invalid percent-encoding$/],
  ];
  for (const [what, request, message] of cases) {
    const exchange = await socketExchange(port, [request], 3000);
    assertJsonError(viaSocket(exchange), 400, message, what);
    assert.ok(exchange.closed, `${what}: the connection is closed`);
  }
});

/** Short timeouts, checked often: the production mechanism at a test's pace. */
const FAST: HttpLimits = { ...HTTP_LIMITS, headersTimeoutMs: 800, requestTimeoutMs: 1500, keepAliveTimeoutMs: 500, timeoutCheckIntervalMs: 100 };

test('when clients are slow — headers trickled byte by byte, nothing sent at all, a body that never ends, an idle keep-alive — then the server cuts them off on its timeouts, answering 408 in JSON where a request was begun', async (t) => {
  const { port, key } = await startServerWith(t, FAST);
  const request = `GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Slow: ${'s'.repeat(200)}\r\n\r\n`;

  // Slowloris: one byte every 50 ms would take ~15 s for the whole request.
  const trickle: (string | number)[] = [];
  for (const ch of request) trickle.push(ch, 50);
  // All at once: the server keeps serving others while it waits for the slow ones.
  const [slow, meanwhile, silent, endlessBody, idle] = await Promise.all([
    socketExchange(port, trickle, 5000),
    sleep(300).then(() => rawRequest('127.0.0.1', port, { target: '/api/v1/currencies', headers: [['authorization', `Bearer ${key}`]] })),
    socketExchange(port, [], 5000),
    socketExchange(port, [`POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n`, 'x', 300, 'x', 300, 'x', 300, 'x', 300, 'x', 300, 'x', 300, 'x'], 5000),
    socketExchange(port, [request], 5000),
  ]);
  assert.equal(meanwhile.status, 200, 'others are served meanwhile');
  assert.ok(slow.closed, 'the trickling client is disconnected');
  assert.ok(slow.closedAfterMs < FAST.headersTimeoutMs + 1000, `…within the headers timeout (after ${Math.round(slow.closedAfterMs)} ms)`);
  assertJsonError(viaSocket(slow), 408, 'The request did not arrive in time', 'a trickled request');

  assert.ok(silent.closed && silent.closedAfterMs < FAST.headersTimeoutMs + 1000, `a silent connection is closed (after ${Math.round(silent.closedAfterMs)} ms)`);

  assert.ok(endlessBody.closed, 'a body that never ends is cut off');
  assert.ok(endlessBody.closedAfterMs < FAST.requestTimeoutMs + 1500, `…within the request timeout (after ${Math.round(endlessBody.closedAfterMs)} ms)`);
  // It was answered (404) before its body ended: the timeout closes the connection without a
  // second answer (regression: a 408 used to follow the 404 on the same connection).
  assert.equal(endlessBody.status, 404);
  assert.equal(endlessBody.received.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, `one answer only: ${endlessBody.received}`);

  assert.equal(idle.status, 200, 'a complete request is served');
  assert.ok(idle.closed && idle.closedAfterMs < FAST.keepAliveTimeoutMs + 1500, `an idle keep-alive connection is closed (after ${Math.round(idle.closedAfterMs)} ms)`);
});

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

async function openSockets(port: number, count: number, firstBytes?: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 250) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(250, count - i) }, () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => {
            if (firstBytes) socket.write(firstBytes);
            resolve(socket);
          });
          socket.on('error', reject);
        }),
      ),
    );
    sockets.push(...batch);
  }
  return sockets;
}

test('when 2,000 connections — 1,000 idle, 1,000 with half-sent requests — are held open against a server process, then its memory stays bounded and it keeps answering', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async (t) => {
  const dbPath = join(tempDir(t, 'currency-rates-flood-'), 'rates.db');
  const stores = await openStores({ databaseUrl: `sqlite:${dbPath}` });
  const key = generateApiKey();
  await stores.keys.create('flood', hashApiKey(key), new Date());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  await stores.close();
  const t0 = performance.now();
  const server = await spawnServer(t, serviceEnv(dbPath));
  t.diagnostic(`spawned in ${Math.round(performance.now() - t0)} ms`);
  const pid = server.child.pid!;
  const get = () => rawRequest('127.0.0.1', server.port, { target: '/api/v1/currencies', headers: [['authorization', `Bearer ${key}`]] });
  for (let i = 0; i < 50; i++) assert.equal((await get()).status, 200);
  const before = rssOf(pid);

  const t1 = performance.now();
  const sockets: Socket[] = [];
  t.after(() => sockets.forEach((s) => s.destroy()));
  sockets.push(...(await openSockets(server.port, 1000)));
  sockets.push(...(await openSockets(server.port, 1000, `GET /api/v1/currencies HTTP/1.1\r\nHost: x\r\nX-Partial: ${'p'.repeat(1000)}`)));
  t.diagnostic(`opened in ${Math.round(performance.now() - t1)} ms`);
  await sleep(500);
  const during = rssOf(pid);
  assert.equal((await withTimeout(get(), 5000, 'an answer during the flood')).status, 200, 'the server answers during the flood');
  const open = sockets.filter((s) => !s.destroyed).length;
  t.diagnostic(`server RSS ${before.toFixed(0)} MB before, ${during.toFixed(0)} MB with ${open} connections held open (+${(during - before).toFixed(0)} MB)`);
  assert.ok(during - before < 150, `RSS grew ${(during - before).toFixed(0)} MB for 2,000 connections (bound 150 MB)`);

  for (const s of sockets) s.destroy();
  await sleep(500);
  assert.equal((await get()).status, 200, 'the server answers after the flood');
  t.diagnostic(`server RSS ${rssOf(pid).toFixed(0)} MB after the connections closed`);
});
