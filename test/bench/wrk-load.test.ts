import assert from 'node:assert/strict';
import { test } from 'node:test';
import { correctionInterval, uncorrected } from '../../bench/wrk-load.js';

/** wrk 4's `stats_correct`, transcribed: what the benchmark must undo. */
function corrected(measured: ReadonlyMap<number, number>, interval: number): Map<number, number> {
  const max = Math.max(...measured.keys());
  const data = new Map(measured);
  for (let n = interval * 2; n <= max; n++) {
    const count = measured.get(n) ?? 0;
    for (let m = n - interval; count > 0 && m > interval; m -= interval) data.set(m, (data.get(m) ?? 0) + count);
  }
  return data;
}

test('wrk’s correction for coordinated omission is undone exactly, and a histogram it could not have made is refused', () => {
  // Latencies in µs: most near 1,800, a tail past several intervals, some exactly on multiples.
  const measured = new Map([[900, 3], [1_750, 40], [1_800, 120], [2_000, 7], [3_600, 5], [5_401, 2], [9_000, 1], [12_345, 1]]);
  const interval = 1_800;
  const made = corrected(measured, interval);
  assert.ok([...made.values()].reduce((a, b) => a + b) > [...measured.values()].reduce((a, b) => a + b), 'the correction added answers');
  assert.deepEqual(uncorrected(made, interval), measured);
  // Under two intervals nothing was added.
  assert.deepEqual(uncorrected(new Map([[100, 4], [3_500, 2]]), interval), new Map([[100, 4], [3_500, 2]]));
  // No interval (fewer answers than connections): wrk corrected nothing.
  assert.deepEqual(uncorrected(made, undefined), made);
  // Two answers at 5,401 µs mean two added at 3,601 µs: a histogram with one there is not wrk's.
  assert.throws(() => uncorrected(new Map([[3_601, 1], [5_401, 2]]), interval), /not one its correction made \(at 3601 µs: 1 recorded, 2 added\)/);
  assert.equal(correctionInterval(1_000_000, 26_418), 1_893);
  assert.equal(correctionInterval(1_000_000, 49), undefined);
});
