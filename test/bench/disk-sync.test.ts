import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { diskSyncLatency } from '../../bench/disk-sync.js';
import { quantile } from '../../bench/load.js';
import { tempDir } from '../helpers/temp-dir.js';

test('the disk probe times each write and sync, gives its quantiles in order, and leaves nothing behind', (t) => {
  const dir = tempDir(t);
  const latency = diskSyncLatency(dir, 40);
  assert.equal(latency.count, 40);
  assert.ok(latency.p50 > 0, `p50 ${latency.p50}`);
  assert.ok(latency.p50 <= latency.p99 && latency.p99 <= latency.max, JSON.stringify(latency));
  assert.deepEqual(readdirSync(dir), []);
});

test('a quantile is the value at that share of the sorted values, the last for 1, and NaN for none', () => {
  const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(quantile(sorted, 0.5), 51);
  assert.equal(quantile(sorted, 0.99), 100);
  assert.equal(quantile(sorted, 1), 100);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});
