import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { quantile } from './load.js';

/** How long a durable write took, in ms. */
export interface SyncLatency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

const BLOCK = 4096;
/** Blocks the probe cycles over: the file is written in full first, so no timed write changes its size. */
const BLOCKS = 256;

/**
 * The floor under every quota commit on this disk: a 4 KiB write and its `fsync`, what a SQLite
 * commit at synchronous=FULL does once per batch (its write-ahead log frame, then one `fsync`),
 * `count` of them in a row in `dir`. The service's loop waits for that sync before it answers the
 * batch, so its tail is the floor of the service's own tail: a run's p99 can be read against it.
 */
export function diskSyncLatency(dir: string, count: number): SyncLatency {
  const path = join(dir, 'sync-probe.bin');
  const fd = openSync(path, 'w');
  const file = Buffer.alloc(BLOCK * BLOCKS, 0x5a);
  const block = file.subarray(0, BLOCK);
  const took: number[] = [];
  try {
    writeSync(fd, file, 0, file.length, 0);
    fsyncSync(fd);
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      writeSync(fd, block, 0, BLOCK, (i % BLOCKS) * BLOCK);
      fsyncSync(fd);
      took.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  const sorted = Float64Array.from(took).sort();
  return { count, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: quantile(sorted, 1) };
}
