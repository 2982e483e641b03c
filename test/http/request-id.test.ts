import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startLoggedServer } from '../helpers/logged-server.js';
import { rawRequest, socketExchange } from '../helpers/raw-http.js';

/** X-Request-Id: honoured when acceptable, else generated; echoed on every answer; the log's reqId. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The production server with a logger whose lines the test reads. */
async function serverWithLog(t: TestContext) {
  const { port, key, lines } = await startLoggedServer(t);
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...headers } });
  /** The access line of the request with this answer (the line is written as it completes). */
  const lineOf = async (url: string) => {
    for (let i = 0; i < 50 && !lines.some((line) => line.url === url); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const line = lines.findLast((candidate) => candidate.url === url);
    assert.ok(line, `an access line for ${url}`);
    return line;
  };
  const loggedIdOf = async (url: string) => (await lineOf(url)).reqId;
  return { get, lineOf, loggedIdOf };
}

test('when a request carries an acceptable X-Request-Id, then the answer echoes it and the log line carries it as reqId', async (t) => {
  const server = await serverWithLog(t);
  const id = 'client-7f3a.retry:2_b';
  const answer = await server.get('/api/v1/currencies?n=1', { 'x-request-id': id });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('x-request-id'), id);
  assert.equal(await server.loggedIdOf('/api/v1/currencies?n=1'), id);

  const longest = 'a'.repeat(128);
  assert.equal((await server.get('/api/v1/currencies?n=2', { 'x-request-id': longest })).headers.get('x-request-id'), longest);
});

test('when X-Request-Id is missing or not acceptable, then a UUID is generated, echoed and logged', async (t) => {
  const server = await serverWithLog(t);
  const cases: [string, Record<string, string>][] = [
    ['none', {}],
    ['too long', { 'x-request-id': 'a'.repeat(129) }],
    ['a space', { 'x-request-id': 'two words' }],
    ['markup', { 'x-request-id': '<script>' }],
    ['a line break escape', { 'x-request-id': 'id%0d%0aX-Injected:1' }],
    // What a JSON log line would have to escape.
    ['a quote and a backslash', { 'x-request-id': 'a"b\\c' }],
    // Its characters are all acceptable, but it would put a key on the request's log lines.
    ['an API key', { 'x-request-id': 'cr_S0S6dy0Fu5qi4RnzHUTQfvxGDRkVgShX25ExAjjQr1I' }],
  ];
  const seen = new Set<string>();
  for (const [what, headers] of cases) {
    const url = `/api/v1/currencies?case=${encodeURIComponent(what)}`;
    const answer = await server.get(url, headers);
    const echoed = answer.headers.get('x-request-id');
    assert.match(echoed ?? '', UUID, `${what}: a generated id`);
    assert.equal(await server.loggedIdOf(url), echoed, `${what}: the log line carries the same id`);
    seen.add(echoed!);
  }
  assert.equal(seen.size, cases.length, 'every request got its own id');
});

test('when the answer is an error (401, unknown path, 405), then it carries the request id too', async (t) => {
  const server = await serverWithLog(t);
  const unauthorized = await server.get('/api/v1/currencies', { authorization: 'Basic x', 'x-request-id': 'e-401' });
  assert.equal(unauthorized.status, 401);
  assert.equal(unauthorized.headers.get('x-request-id'), 'e-401');
  const unknown = await server.get('/nowhere', { 'x-request-id': 'e-404' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get('x-request-id'), 'e-404');
  const refused = await server.get('/api/v1/convert', { 'x-request-id': 'e-405' }, 'DELETE');
  assert.equal(refused.status, 405);
  assert.equal(refused.headers.get('x-request-id'), 'e-405');
});

test('when one request is answered and another refused by validation, then their access lines have the same fields in the same order', async (t) => {
  const server = await serverWithLog(t);
  const answered = '/api/v1/currencies?line=answered';
  const refused = '/api/v1/convert?from=US&to=JPY&amount=1';
  assert.equal((await server.get(answered)).status, 200);
  assert.equal((await server.get(refused)).status, 400);
  const answeredLine = await server.lineOf(answered);
  const refusedLine = await server.lineOf(refused);
  const fields = ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'route', 'status', 'ms', 'keyId', 'msg'];
  assert.deepEqual(Object.keys(answeredLine), fields);
  assert.deepEqual(Object.keys(refusedLine), fields);
  assert.equal(answeredLine.route, '/api/v1/currencies');
  assert.equal(refusedLine.route, '/api/v1/convert');
  assert.deepEqual([answeredLine.status, refusedLine.status], [200, 400]);
  assert.equal(answeredLine.keyId, refusedLine.keyId);
});

test("when the router refuses a path (a bad escape) or Node's parser a request, then the answer's id is on a log line, and the router's refusal is counted in the metrics", async (t) => {
  const { port, lines } = await startLoggedServer(t);
  const unmatched400 = async () => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return Number(/^http_requests_total\{route="unmatched",method="GET",status="400"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };
  const lineWith = async (reqId: string) => {
    for (let i = 0; i < 50 && !lines.some((line) => line.reqId === reqId); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return lines.find((line) => line.reqId === reqId);
  };
  const before = await unmatched400();
  const badEscape = await rawRequest('127.0.0.1', port, { target: '/api/v1/rates/%zz', headers: [['x-request-id', 'bad-escape-1']] });
  assert.equal(badEscape.status, 400);
  assert.deepEqual(
    { ...(await lineWith('bad-escape-1')), level: undefined, time: undefined, pid: undefined, hostname: undefined, ms: undefined },
    { level: undefined, time: undefined, pid: undefined, hostname: undefined, reqId: 'bad-escape-1', method: 'GET', url: '/api/v1/rates/%zz', status: 400, ms: undefined, msg: 'request' },
  );
  assert.equal(await unmatched400(), before + 1);

  const garbage = await socketExchange(port, ['HELLO THERE\r\n\r\n'], 3000);
  assert.equal(garbage.status, 400);
  const id = String(garbage.headers['x-request-id']);
  assert.match(id, UUID);
  assert.deepEqual((await lineWith(id))?.status, 400, 'a line with the answer\'s id and status');
});
