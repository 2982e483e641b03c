import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { OwnHeads } from '../../src/http/own-head.js';
import type { RequestId } from '../../src/http/request-id.js';
import type { RenderedBody } from '../../src/http/response-cache.js';
import { socketExchange } from '../helpers/raw-http.js';
import { startTestServer } from '../helpers/test-server.js';

/** An answer as it came off the wire: its head's bytes and its body. */
interface WireAnswer {
  head: string;
  body: string;
}

/**
 * Sends the requests on one connection (socketExchange), 50 ms apart so that each is answered
 * before the next goes, and splits what came back into answers by their Content-Length.
 */
async function onOneConnection(port: number, requests: string[]): Promise<{ answers: WireAnswer[]; closedByServer: boolean }> {
  const exchange = await socketExchange(port, requests.flatMap((text, i) => (i === 0 ? [text] : [50, text])), 300);
  const answers: WireAnswer[] = [];
  for (let rest = exchange.received; rest.length > 0; ) {
    const end = rest.indexOf('\r\n\r\n');
    const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(rest.slice(0, end + 2))?.[1]);
    if (end === -1 || Number.isNaN(length)) throw new Error(`not an answer with a length: ${JSON.stringify(rest)}`);
    answers.push({ head: rest.slice(0, end + 4), body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  assert.equal(answers.length, requests.length, 'one answer a request');
  return { answers, closedByServer: exchange.closed };
}

const BODY: RenderedBody = { text: '{"a":"b"}', encoding: 'latin1', byteLength: 9, etag: '"tag.12.5"' };

/** A bare node:http server answering every request through one OwnHeads, with fixed values. */
async function serverWith(t: TestContext, heads: OwnHeads, configure: (server: Server) => void = () => {}): Promise<number> {
  let count = 0;
  const server = createServer((_request, response) => heads.send(response, `id-${++count}` as RequestId, '1000', 1000 - count, 1798095114, BODY));
  configure(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

/** A head with its Date line's value replaced: the second may turn between two answers. */
function undated(head: string): string {
  return head.replace(/\r\nDate: [^\r]+\r\n/, '\r\nDate: (date)\r\n');
}

test('when allowed answers follow one another on a keep-alive connection, then after the first every head is made by OwnHeads and is the bytes writeHead wrote for the first', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads);
  const { answers, closedByServer } = await onOneConnection(port, [GET, GET, GET]);
  assert.equal(heads.inUse, true, "the first answer's head, from writeHead, matched the one made here");
  assert.equal(closedByServer, false);
  assert.deepEqual(
    answers.map((answer) => answer.body),
    ['{"a":"b"}', '{"a":"b"}', '{"a":"b"}'],
  );
  const expected = (n: number) =>
    'HTTP/1.1 200 OK\r\n' +
    `x-request-id: id-${n}\r\n` +
    'access-control-allow-origin: *\r\n' +
    'access-control-expose-headers: ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id\r\n' +
    'x-content-type-options: nosniff\r\n' +
    'x-ratelimit-limit: 1000\r\n' +
    `x-ratelimit-remaining: ${1000 - n}\r\n` +
    'x-ratelimit-reset: 1798095114\r\n' +
    'etag: "tag.12.5"\r\n' +
    'content-type: application/json; charset=utf-8\r\n' +
    'content-length: 9\r\n' +
    'Date: (date)\r\n' +
    'Connection: keep-alive\r\n' +
    'Keep-Alive: timeout=5\r\n\r\n';
  assert.deepEqual(
    answers.map((answer) => undated(answer.head)),
    [expected(1), expected(2), expected(3)],
  );
  for (const { head } of answers) {
    const date = /\r\nDate: ([^\r]+)\r\n/.exec(head)![1]!;
    assert.ok(Math.abs(Date.parse(date) - Date.now()) < 5_000, date);
    assert.equal(new Date(Date.parse(date)).toUTCString(), date, 'in the form Node writes');
  }
});

test('when a request asks to close its connection, then its answer goes through writeHead, says Connection: close, and the connection closes', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads);
  const { answers, closedByServer } = await onOneConnection(port, [GET, GET, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
  assert.equal(heads.inUse, true);
  assert.match(answers[2]!.head, /\r\ncontent-length: 9\r\nDate: [^\r]+\r\nConnection: close\r\n\r\n$/);
  assert.equal(closedByServer, true);
});

test('when an HTTP/1.0 request does not ask to keep its connection, then its answer says Connection: close and the connection closes', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads);
  const { answers, closedByServer } = await onOneConnection(port, [GET, 'GET / HTTP/1.0\r\nHost: x\r\n\r\n']);
  assert.match(answers[1]!.head, /\r\nConnection: close\r\n\r\n$/);
  assert.equal(closedByServer, true);
});

test('when an HTTP/1.0 request asks to keep its connection, then its head is made by OwnHeads, as Node would write it, and the connection stays open', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads);
  const keepAlive10 = 'GET / HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n';
  const { answers, closedByServer } = await onOneConnection(port, [keepAlive10, keepAlive10, keepAlive10]);
  assert.equal(heads.inUse, true);
  assert.equal(closedByServer, false);
  const lines = answers.map((answer) => undated(answer.head).replace(/\r\nx-request-id: id-\d\r\n/, '\r\n').replace(/\r\nx-ratelimit-remaining: \d+\r\n/, '\r\n'));
  assert.equal(lines[1], lines[0]);
  assert.equal(lines[2], lines[0]);
  assert.match(answers[2]!.head, /^HTTP\/1\.1 200 OK\r\n[^]*\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n$/);
});

test('when the server limits requests per connection, then Node writes every head, with the limit in Keep-Alive and Connection: close on the last', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads, (server) => (server.maxRequestsPerSocket = 3));
  const { answers } = await onOneConnection(port, [GET, GET, GET]);
  assert.equal(heads.inUse, false, 'never compared: no answer could take a head made here');
  assert.match(answers[0]!.head, /\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5, max=3\r\n\r\n$/);
  assert.match(answers[1]!.head, /\r\nKeep-Alive: timeout=5, max=3\r\n\r\n$/);
  assert.match(answers[2]!.head, /\r\nConnection: close\r\n\r\n$/);
});

test('when the server keeps no connection alive between requests, then the heads are Node\'s, without Keep-Alive', async (t) => {
  const heads = new OwnHeads();
  const port = await serverWith(t, heads, (server) => (server.keepAliveTimeout = 0));
  const { answers } = await onOneConnection(port, [GET, GET]);
  assert.equal(heads.inUse, false);
  for (const answer of answers) assert.match(answer.head, /\r\nConnection: keep-alive\r\n\r\n$/);
});

test('when the service answers allowed requests on one keep-alive connection, then its own heads are the bytes of the one writeHead wrote, but for the id, the count and the date', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv', 'daily.xml'], env: { QUOTA_LIMIT: '100' } });
  const port = Number(new URL(server.url).port);
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`;
  const paths = ['/api/v1/rates/latest', '/api/v1/rates/latest', '/api/v1/convert/bulk?from=GBP&to=USD,JPY&amount=12.5', '/api/v1/convert/bulk?from=GBP&to=USD,JPY&amount=12.5'];
  const { answers } = await onOneConnection(port, paths.map(get));
  const comparable = (head: string) =>
    undated(head)
      .replace(/\r\nx-request-id: [0-9a-f-]{36}\r\n/, '\r\nx-request-id: (id)\r\n')
      .replace(/\r\nx-ratelimit-remaining: \d+\r\n/, '\r\nx-ratelimit-remaining: (n)\r\n');
  assert.equal(comparable(answers[1]!.head), comparable(answers[0]!.head));
  assert.equal(comparable(answers[3]!.head), comparable(answers[2]!.head));
  assert.match(answers[3]!.head, /^HTTP\/1\.1 200 OK\r\n[^]*\r\nx-ratelimit-remaining: 96\r\n[^]*\r\netag: "[\w-]+\.12\.5"\r\n[^]*\r\nKeep-Alive: timeout=72\r\n\r\n$/);
  assert.equal(answers[3]!.body, answers[2]!.body);
  assert.deepEqual(JSON.parse(answers[3]!.body).amount, '12.5');
});
