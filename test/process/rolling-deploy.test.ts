import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { spawnServer, untilLogged, withTimeout } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** What came back on a raw connection that sent one request: the status, the Connection header, or how it failed. */
interface Outcome {
  status?: number;
  connection?: string;
  failure?: string;
}

function request(path: string, key?: string): string {
  const auth = key === undefined ? '' : `Authorization: Bearer ${key}\r\n`;
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`;
}

/** Reads one answer's head from `socket`; a reset, or a close before any answer, is a failure. */
function answerOn(socket: Socket): Promise<Outcome> {
  return new Promise((resolve) => {
    let data = '';
    const done = (outcome: Outcome) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = data.slice(0, end);
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), connection: /\r\nconnection: ([^\r]*)/i.exec(head)?.[1]?.toLowerCase() });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => done({ failure: err.code ?? err.message }));
    socket.on('close', () => done({ failure: data === '' ? 'closed without an answer' : 'cut inside the answer' }));
  });
}

/** A connection to `port`, connected. */
async function connected(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/**
 * `text` sent on `socket` but for its final CRLF: a request begun, so the connection is not idle.
 * `finish` sends the rest; `answer` is what then comes back.
 */
function begin(socket: Socket, text: string): { answer: Promise<Outcome>; finish(): void } {
  const answer = answerOn(socket);
  socket.write(text.slice(0, -2));
  return { answer, finish: () => void socket.write(text.slice(-2)) };
}

test('when SIGTERM arrives with 200 requests in flight, then every one gets its normal answer, none is reset, /ready turns 503, and the server exits 0', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'deploy.db'), { QUOTA_LIMIT: '100000' });
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);

  // A keep-alive connection opened before the signal, used again after it.
  const kept = await connected(server.port);
  kept.write(request('/api/v1/currencies', key));
  const keptFirst = await new Promise<string>((resolve) => kept.once('data', (chunk) => resolve(String(chunk))));
  assert.match(keptFirst, /^HTTP\/1\.1 200 /);

  // Its next request begun before the signal and finished after it: a client mid-request. (An idle
  // kept connection may be closed once the drain's accepting ends, as HTTP allows; a request
  // begun is always answered.)
  const keptAgain = begin(kept, request('/api/v1/currencies', key));

  // A health check begun the same way, so that it is answered however long this process takes to
  // finish it: a new connection made later may find the listener closed, which is the drain's aim.
  const readyCheck = begin(await connected(server.port), request('/ready'));

  // 200 connections, each sending one request the moment it connects; the signal follows at once,
  // so some are still in the listen backlog and many in flight.
  const outcomes: Promise<Outcome>[] = [];
  for (let i = 0; i < 200; i++) {
    const socket = connect(server.port, '127.0.0.1');
    outcomes.push(answerOn(socket));
    socket.once('connect', () => socket.write(request(`/api/v1/convert?from=USD&to=JPY&amount=${i + 1}`, key)));
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  server.child.kill('SIGTERM');

  // The server logs the signal in the turn that starts its drain: /ready is 503 from then on.
  await untilLogged(server, /SIGTERM: finishing in-flight requests/, 'the server to log the signal');
  readyCheck.finish();
  assert.deepEqual(await readyCheck.answer, { status: 503, connection: 'close' }, '/ready answers 503 while the server drains');

  keptAgain.finish();
  assert.deepEqual(await keptAgain.answer, { status: 200, connection: 'close' }, 'a request on a connection opened before the signal gets its normal answer, with Connection: close');

  const results = await withTimeout(Promise.all(outcomes), 20_000, 'the 200 answers');
  const tally = new Map<string, number>();
  for (const outcome of results) {
    const what = outcome.failure ?? String(outcome.status);
    tally.set(what, (tally.get(what) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries(tally), { 200: 200 }, 'every request in flight is answered 200');
  assert.deepEqual(await withTimeout(server.exited, 25_000, 'the server to exit'), { code: 0, signal: null });
});
