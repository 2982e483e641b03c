import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RatesSnapshot } from '../../src/domain/snapshot.js';
import { HTTP_LIMITS } from '../../src/http/limits.js';
import { loadWebFiles } from '../../src/http/routes/web-page.js';
import { HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { NEEDS_PYTHON, stalledReaders } from '../helpers/stalled-readers.js';
import { FIXTURES, read, startTestApp, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * DECISIONS §14: a range larger than the cache may keep is produced twice, a first pass for its
 * ETag and length, a second writing the bytes as the client reads them; the two ways give the
 * same bytes. (The slow readers and the fair share, on a server process: test/process/heavy-answers.)
 */

const WHOLE = '/api/v1/rates/1999-01-04..';
const sha1 = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`;

test('when the whole history cannot be kept (RESPONSE_CACHE_MB=1), then it is written in a second pass, the same bytes as a kept one', async (t) => {
  const usual = await startTestApp(t, { ingest: [HISTORY_ZIP] });
  const small = await startTestApp(t, { ingest: [HISTORY_ZIP], env: { RESPONSE_CACHE_MB: '1' } });
  const passes = t.mock.method(RatesSnapshot.prototype, 'daysBetween');
  const passesOf = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const before = passes.mock.callCount();
    const result = await work();
    return [result, passes.mock.callCount() - before];
  };

  const [kept, keptPasses] = await passesOf(async () => read(await usual.get(WHOLE)));
  assert.equal(kept.status, 200);
  assert.equal(keptPasses, 1, 'kept: one pass');
  assert.ok(kept.text.length > 3_000_000, `the whole history is large (${kept.text.length} bytes)`);

  for (const round of ['first', 'again']) {
    const [written, writtenPasses] = await passesOf(async () => read(await small.get(WHOLE)));
    assert.equal(writtenPasses, 2, `${round}: a first pass for the ETag and length, a second for the bytes`);
    assert.equal(written.text, kept.text, round);
    assert.equal(written.headers.get('etag'), kept.headers.get('etag'));
    assert.equal(written.headers.get('etag'), sha1(written.text));
    assert.equal(written.headers.get('content-length'), String(Buffer.byteLength(written.text)));
  }

  const [notModified, checkPasses] = await passesOf(() => small.get(WHOLE, { headers: { 'if-none-match': kept.headers.get('etag')! } }));
  assert.equal(notModified.status, 304);
  assert.equal(checkPasses, 1, 'a 304 needs the first pass only');

  const [head, headPasses] = await passesOf(() => small.get(WHOLE, { method: 'HEAD' }));
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(kept.text)));
  assert.equal(await head.text(), '');
  assert.equal(headPasses, 1, 'a HEAD needs the first pass only');

  const [inUsual, usualAgain] = await passesOf(async () => read(await usual.get(`${WHOLE}?unknown=1`)));
  assert.equal(inUsual.text, kept.text);
  assert.equal(usualAgain, 0, 'the kept one is sent again');
});

/** Sends `GET path` on `socket` (kept alive) and reads one whole answer, leaving the socket open. */
function exchange(socket: Socket, host: string, path: string, key: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (end === -1 || length === undefined || text.length < end + 4 + Number(length)) return;
      socket.off('data', onData).off('close', onClose);
      resolve(text);
    };
    const onClose = () => reject(new Error(`the connection closed: ${text}`));
    socket.on('data', onData).once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  });
}

/** A server's tuning with this stall limit, and the test page (the unit loop runs before the build). */
const stallLimit = (stalledAnswerMs: number) => ({ httpLimits: { ...HTTP_LIMITS, stalledAnswerMs }, webFiles: loadWebFiles(`${FIXTURES}web-page/`) });

/** A kept-alive connection to `server`: `ask` sends GET `path` on it and reads one whole answer. */
async function keptAlive(t: TestContext, server: TestServer): Promise<{ socket: Socket; ask: (path: string) => Promise<string> }> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  t.after(() => socket.destroy());
  await once(socket, 'connect');
  return { socket, ask: (path) => exchange(socket, `${hostname}:${port}`, path, server.key) };
}

test('when a kept-alive connection idles longer than the stall limit between answers, then it stays open: only an answer waiting is cut', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] }, stallLimit(200));
  const { socket, ask } = await keptAlive(t, server);
  const first = await ask('/api/v1/rates/latest');
  assert.match(first, /^HTTP\/1\.1 200/);
  await sleep(700);
  const second = await ask('/api/v1/rates/latest?symbols=USD');
  assert.match(second, /^HTTP\/1\.1 200/);
  assert.ok(!socket.destroyed);
});

test('when a client takes none of a one-year answer (sent whole, more than a socket buffers), then its connection is cut within the stall limit; a slow reader gets all of it', NEEDS_PYTHON, async (t) => {
  const stalledAnswerMs = 1_000;
  const server = await startTestServer(t, { ingest: [HISTORY_ZIP] }, stallLimit(stalledAnswerMs));
  const year = '/api/v1/rates/2025-01-01..2025-12-31';
  const answer = await read(await server.get(year));
  const bytes = Buffer.byteLength(answer.text);
  assert.ok(bytes > 64 * 1024 && bytes < 1024 * 1024, `between what a socket buffers and what is sent whole (${bytes} bytes)`);
  const port = Number(new URL(server.url).port);

  const stalled = await stalledReaders(t, port, server.key, [year]);
  await sleep(stalledAnswerMs + 500);
  const [cut] = await stalled.read();
  assert.ok(cut!.closed, `the server closed the connection (${cut!.bytes} of ${bytes} bytes read)`);
  assert.ok(cut!.bytes < bytes, `before the whole answer was sent (${cut!.bytes} of ${bytes} bytes)`);

  // 16 KiB every 150 ms: the client takes bytes within every half of the limit, for longer than the limit.
  const slow = await stalledReaders(t, port, server.key, [year], 150);
  const started = performance.now();
  const [whole] = await slow.read();
  assert.ok(performance.now() - started > stalledAnswerMs, 'the reading lasted longer than the stall limit');
  assert.ok(whole!.bytes > bytes, `the whole answer and its head arrived (${whole!.bytes} bytes for a body of ${bytes})`);
});

test('when a kept-alive connection idles longer than the stall limit after an answer larger than a socket buffers, then it stays open for the next request', async (t) => {
  const server = await startTestServer(t, { ingest: [HISTORY_ZIP] }, stallLimit(200));
  const { socket, ask } = await keptAlive(t, server);
  const year = await ask('/api/v1/rates/2025-01-01..2025-12-31');
  assert.match(year, /^HTTP\/1\.1 200/);
  assert.ok(year.length > 64 * 1024, `watched for a stall while sent (${year.length} bytes)`);
  // The stall watch ends with the answer: the server's keep-alive timeout (72 s) takes over.
  await sleep(700);
  assert.ok(!socket.destroyed, 'the connection is still open after idling');
  const next = await ask('/api/v1/rates/latest');
  assert.match(next, /^HTTP\/1\.1 200/);
});
