import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCosts, rawAnswer } from '../../bench/generator-parse.js';
import { spawnAndWait } from '../../bench/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

// Sends its body in two writes, so that an answer arrives in more than one chunk.
const SERVER = `
  require('node:http').createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': 10, 'x-seen': request.headers['x-ask'] ?? 'none' });
    response.write('01234');
    setTimeout(() => response.end('56789'), 20);
  }).listen(Number(process.env.PORT), process.env.HOST);
`;

test('an answer is read whole, as its bytes came, and timed on the load generator’s parser with its header lines counted', { timeout: 60_000 }, async (t) => {
  const server = await spawnAndWait(['-e', SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/');
  t.after(() => server.stop());
  const answer = await rawAnswer(server.url, '/anything', { 'x-ask': 'yes' });
  const text = answer.toString('latin1');
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(text, /\r\nx-seen: yes\r\n/);
  assert.ok(text.endsWith('\r\n\r\n0123456789'), text);
  // content-type, content-length, x-seen, and Node's Date, Connection and Keep-Alive.
  const [cost] = parseCosts([answer], 1_000, 3);
  assert.equal(cost!.bytes, answer.length);
  assert.equal(cost!.headerLines, 6);
  assert.ok(cost!.micros > 0);
});

test('bytes that are not exactly one answer are refused, not timed', () => {
  // An answer whose body runs until the connection closes never ends.
  assert.throws(() => parseCosts([Buffer.from('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n01234')], 10, 1), /parsed 0 answers of 10/);
  // An answer and a byte more: the next answer starts with that byte.
  assert.throws(() => parseCosts([Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789X')], 10, 1), /not an answer autocannon can read/);
});
