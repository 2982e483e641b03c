import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { load } from '../load.js';
import { spawnAndWait } from '../processes.js';

// A server that answers 300 requests, says why on stderr and exits 3: as a server that aborts
// under load does, mid-window.
const DYING_SERVER = `
  let answered = 0;
  require('node:http').createServer((request, response) => {
    response.end('ok');
    if (++answered === 300) { process.stderr.write('gone after 300'); process.exit(3); }
  }).listen(Number(process.env.PORT), process.env.HOST);
`;

test('when the server dies during a load that waits for a fixed number of answers, then the load ends with its exit status and stderr instead of waiting for ever', { timeout: 60_000 }, async (t) => {
  const server = await spawnAndWait(['-e', DYING_SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/');
  t.after(() => server.stop());
  const ended = await load({ url: server.url, path: '/', amount: 1_000_000, signal: server.died }).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  assert.ok(ended instanceof Error, 'the load was rejected');
  assert.match(ended.message, /exited during the benchmark \(code 3, signal null\); its stderr:\ngone after 300$/);
  // A load begun after the death is refused at once.
  await assert.rejects(load({ url: server.url, path: '/', amount: 10, signal: server.died }), /code 3/);
});

test('when a server is stopped, then its death is not reported as one, and its finished loads left no listener on the signal', async (t) => {
  const server = await spawnAndWait(['-e', DYING_SERVER.replace('300', '1e9')], { ...process.env }, join(tempDir(t), 'server.log'), '/');
  t.after(() => server.stop());
  for (let i = 0; i < 12; i++) await load({ url: server.url, path: '/', amount: 50, signal: server.died });
  assert.equal(getEventListeners(server.died, 'abort').length, 0);
  await server.stop();
  assert.equal(server.died.aborted, false);
  // Stopping a process already gone returns at once.
  await server.stop();
});
