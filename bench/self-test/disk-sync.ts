import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { diskSyncLatency } from '../disk-sync.js';

test('the disk probe times each write and sync, gives its quantiles in order, and leaves nothing behind', (t) => {
  const dir = tempDir(t);
  const latency = diskSyncLatency(dir, 40);
  assert.equal(latency.count, 40);
  assert.ok(latency.p50 > 0, `p50 ${latency.p50}`);
  assert.ok(latency.p50 <= latency.p99 && latency.p99 <= latency.max, JSON.stringify(latency));
  assert.deepEqual(readdirSync(dir), []);
});
