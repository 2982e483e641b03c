import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freePort } from '../helpers/server-process.js';

/**
 * Why it matters is on the helper (server-process.ts): bind(0) may hand back a port soon after it
 * was closed, often one of the last few.
 */
test('when a test process asks for free ports many times over, then no port is handed out twice', async () => {
  const ports = new Set<number>();
  for (let i = 0; i < 3000; i++) {
    const port = await freePort();
    assert.ok(!ports.has(port), `port ${port} handed out twice (pick ${i + 1})`);
    ports.add(port);
  }
});
