import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Row } from '../../bench/report.js';
import { peakRssLine, TARGETS, targetLines } from '../../bench/targets.js';

/** A judged row: `ratio` of the baseline's requests/s, `cpu` µs of server CPU per answer against the baseline's 20. */
function row(route: string, ratio: number, p99: number, target?: Row['target'], options: { roundRatios?: number[]; cpu?: number; roundCpuRatios?: number[] } = {}): Row {
  const { roundRatios = [ratio], cpu = 20 } = options;
  const { roundCpuRatios = [cpu / 20] } = options;
  return {
    config: 'SQLite',
    route,
    summary: { requestsPerSecond: 1000 * ratio, p50: 1, p99, p999: 2 * p99, cpuUsPerRequest: cpu },
    baseline: { requestsPerSecond: 1000, p50: 1, p99: 4.2, p999: 8.4, cpuUsPerRequest: 20 },
    roundRatios,
    roundCpuRatios,
    rssMb: 100,
    ...(target ? { target } : {}),
  };
}

const { latest: LATEST, convert: CONVERT, bulk: BULK } = TARGETS;

const exact = [
  { config: 'SQLite', counted: 20000, stored: 20000 },
  { config: 'PostgreSQL + Redis', counted: 20000, stored: 20000 },
];

test('when every target is reached exactly at its bound, then every line says met', () => {
  const lines = targetLines({
    rows: [
      row('rates/latest', 0.3, 10, LATEST, { roundRatios: [0.2512, 0.3, 0.3549], cpu: 36, roundCpuRatios: [1.7, 1.8, 1.95] }),
      row('convert, random amounts', 0.28, 9, CONVERT, { cpu: 40 }),
      row('convert/bulk, 25 targets, random amounts', 0.18, 12, BULK, { cpu: 60 }),
      row('currencies', 0.1, 50),
    ],
    exactness: exact,
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.30 × baseline (floor): 0.300 (rounds 0.251–0.355), met',
    "rates/latest server CPU per answer ≤ 1.8 × the baseline's: 1.800 (rounds 1.700–1.950; 36.0 µs against 20.0 µs), met",
    "rates/latest p99 ≤ 10 ms at 50 connections: 10.00 ms, met (the baseline's p99 in the same rounds: 4.20 ms)",
    'convert, random amounts ≥ 0.28 × baseline (floor): 0.280 (rounds 0.280), met',
    "convert, random amounts server CPU per answer ≤ 2.0 × the baseline's: 2.000 (rounds 2.000; 40.0 µs against 20.0 µs), met",
    'convert/bulk, 25 targets, random amounts ≥ 0.18 × baseline (floor): 0.180 (rounds 0.180), met',
    "convert/bulk, 25 targets, random amounts server CPU per answer ≤ 3.0 × the baseline's: 3.000 (rounds 3.000; 60.0 µs against 20.0 µs), met",
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; PostgreSQL + Redis 20000 counted, 20000 stored, met',
  ]);
});

test('when each target is missed just past its bound, then its line says NOT met, and a route without a target is not judged', () => {
  const lines = targetLines({
    rows: [
      row('rates/latest', 0.299, 10.01, LATEST, { cpu: 36.02 }),
      row('convert, random amounts', 0.279, 9, CONVERT, { cpu: 40.02 }),
      row('convert/bulk, 25 targets, random amounts', 0.179, 12, BULK, { cpu: 60.02 }),
      row('400 (bad parameters)', 0.2, 30),
    ],
    exactness: [exact[0]!, { config: 'SQLite, WORKERS=2', counted: 20000, stored: 19999 }],
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.30 × baseline (floor): 0.299 (rounds 0.299), NOT met',
    "rates/latest server CPU per answer ≤ 1.8 × the baseline's: 1.801 (rounds 1.801; 36.0 µs against 20.0 µs), NOT met",
    "rates/latest p99 ≤ 10 ms at 50 connections: 10.01 ms, NOT met (the baseline's p99 in the same rounds: 4.20 ms)",
    'convert, random amounts ≥ 0.28 × baseline (floor): 0.279 (rounds 0.279), NOT met',
    "convert, random amounts server CPU per answer ≤ 2.0 × the baseline's: 2.001 (rounds 2.001; 40.0 µs against 20.0 µs), NOT met",
    'convert/bulk, 25 targets, random amounts ≥ 0.18 × baseline (floor): 0.179 (rounds 0.179), NOT met',
    "convert/bulk, 25 targets, random amounts server CPU per answer ≤ 3.0 × the baseline's: 3.001 (rounds 3.001; 60.0 µs against 20.0 µs), NOT met",
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; SQLite, WORKERS=2 20000 counted, 19999 stored, NOT met',
  ]);
});

test('when a judged route\'s CPU was not measured, then its CPU line says so and is not met', () => {
  const unmeasured = row('rates/latest', 0.4, 5, LATEST);
  delete unmeasured.summary.cpuUsPerRequest;
  const lines = targetLines({ rows: [{ ...unmeasured, roundCpuRatios: [] }], exactness: [exact[0]!] });
  assert.equal(lines[1], "rates/latest server CPU per answer ≤ 1.8 × the baseline's: not measured, NOT met");
});

test('a peak RSS at its bound is met, one past it is not', () => {
  assert.equal(peakRssLine('SQLite, every route', 128, 128), 'SQLite, every route: peak RSS (VmHWM) ≤ 128 MB through the whole bench: 128 MB, met');
  assert.equal(peakRssLine('SQLite, every route', 128.6, 128), 'SQLite, every route: peak RSS (VmHWM) ≤ 128 MB through the whole bench: 129 MB, NOT met');
});
