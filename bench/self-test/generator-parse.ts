import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { parseCosts, rawAnswer } from '../generator-parse.js';
import { spawnAndWait } from '../processes.js';

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
