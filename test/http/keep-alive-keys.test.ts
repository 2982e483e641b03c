import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { openStores } from '../../src/storage/open-stores.js';
import { startTestServer } from '../helpers/test-server.js';

/** Every request on a keep-alive connection is the key it carries, whatever the connection sent before; these requests all share one connection. */

interface Answer {
  status: number;
  remaining: string | undefined;
  reusedSocket: boolean;
}

function get(agent: Agent, url: string, authorization: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/currencies`, { agent, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, remaining: res.headers['x-ratelimit-remaining'] as string | undefined, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('when one keep-alive connection sends one key, then another, then the first again after its revocation, then each request is the key it names', async (t) => {
  const server = await startTestServer(t, { env: { QUOTA_LIMIT: '100' } });
  const second = generateApiKey();
  const stores = await openStores(server.storeConfig);
  t.after(() => stores.close());
  await stores.keys.create('second', hashApiKey(second), new Date());
  // Loaded into the key cache by its next refresh (200 ms in tests), so both keys are found in memory.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  const first = `Bearer ${server.key}`;

  assert.deepEqual(await get(agent, server.url, first), { status: 200, remaining: '99', reusedSocket: false });
  assert.deepEqual(await get(agent, server.url, first), { status: 200, remaining: '98', reusedSocket: true });
  assert.deepEqual(await get(agent, server.url, `Bearer ${second}`), { status: 200, remaining: '99', reusedSocket: true }, 'counted to the second key');
  assert.deepEqual(await get(agent, server.url, first), { status: 200, remaining: '97', reusedSocket: true }, 'and back to the first');
  const unknown = `${second.slice(0, -1)}${second.endsWith('x') ? 'y' : 'x'}`;
  assert.equal((await get(agent, server.url, `Bearer ${unknown}`)).status, 401, 'a changed header is read again');

  assert.equal(await stores.keys.revoke(server.keyId, new Date()), true);
  let answer = await get(agent, server.url, first);
  for (const deadline = Date.now() + 5000; answer.status === 200 && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await get(agent, server.url, first);
  }
  assert.deepEqual(answer, { status: 401, remaining: undefined, reusedSocket: true }, 'the revoked key is refused on the connection that used it');
  assert.deepEqual(await get(agent, server.url, `Bearer ${second}`), { status: 200, remaining: '98', reusedSocket: true });
});

test('when a key is revoked while the server drains for a shutdown, then its requests are refused within 5 s all the same (DECISIONS §4)', async (t) => {
  const server = await startTestServer(t);
  // Held open, so the drain lasts: the server keeps accepting and answering until it is closed.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  assert.equal((await get(agent, server.url, `Bearer ${server.key}`)).status, 200);
  const closing = server.server.close();
  const stores = await openStores(server.storeConfig);
  await stores.keys.revoke(server.keyId, new Date());
  await stores.close();
  const revoked = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - revoked < 5_000) {
    status = (await get(new Agent(), server.url, `Bearer ${server.key}`)).status;
    if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(status, 401, `still ${status} ${Date.now() - revoked} ms after the revocation`);
  agent.destroy();
  await closing;
});
