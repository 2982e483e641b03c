import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freePort } from '../helpers/server-process.js';

/**
 * Tests of one file start servers side by side, each on a port from freePort. bind(0) hands a
 * port back soon after it was closed (here, about once in 3,000 consecutive picks the port of one
 * of the last three), and a port picked for a server still loading its store is closed until that
 * server listens: without the helper's memory two servers could be given one port, and one test's
 * probe be answered by another test's server.
 */
test('when a test process asks for free ports many times over, then no port is handed out twice', async () => {
  const ports = new Set<number>();
  for (let i = 0; i < 3000; i++) {
    const port = await freePort();
    assert.ok(!ports.has(port), `port ${port} handed out twice (pick ${i + 1})`);
    ports.add(port);
  }
});
