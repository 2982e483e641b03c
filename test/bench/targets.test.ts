import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Row } from '../../bench/report.js';
import { TARGETS, targetLines } from '../../bench/targets.js';

function row(route: string, ratio: number, p99: number, target?: Row['target'], roundRatios = [ratio]): Row {
  return {
    config: 'SQLite',
    route,
    summary: { requestsPerSecond: 1000 * ratio, p50: 1, p99, p999: 2 * p99 },
    baseline: { requestsPerSecond: 1000, p50: 1, p99: 4.2, p999: 8.4 },
    roundRatios,
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
      row('rates/latest', 0.5, 10, LATEST, [0.4512, 0.5, 0.6049]),
      row('convert, random amounts', 0.45, 9, CONVERT),
      row('convert/bulk, 25 targets, random amounts', 0.4, 12, BULK),
      row('currencies', 0.1, 50),
    ],
    exactness: exact,
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.50 × baseline: 0.500 (rounds 0.451–0.605), met',
    "rates/latest p99 ≤ 10 ms at 50 connections: 10.00 ms, met (the baseline's p99 in the same rounds: 4.20 ms)",
    'convert, random amounts ≥ 0.45 × baseline: 0.450 (rounds 0.450), met',
    'convert/bulk, 25 targets, random amounts ≥ 0.40 × baseline: 0.400 (rounds 0.400), met',
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; PostgreSQL + Redis 20000 counted, 20000 stored, met',
  ]);
});

test('when each target is missed just past its bound, then its line says NOT met, and a route without a target is not judged', () => {
  const lines = targetLines({
    rows: [
      row('rates/latest', 0.499, 10.01, LATEST),
      row('convert, random amounts', 0.449, 9, CONVERT),
      row('convert/bulk, 25 targets, random amounts', 0.399, 12, BULK),
      row('400 (bad parameters)', 0.2, 30),
    ],
    exactness: [exact[0]!, { config: 'SQLite, WORKERS=2', counted: 20000, stored: 19999 }],
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.50 × baseline: 0.499 (rounds 0.499), NOT met',
    "rates/latest p99 ≤ 10 ms at 50 connections: 10.01 ms, NOT met (the baseline's p99 in the same rounds: 4.20 ms)",
    'convert, random amounts ≥ 0.45 × baseline: 0.449 (rounds 0.449), NOT met',
    'convert/bulk, 25 targets, random amounts ≥ 0.40 × baseline: 0.399 (rounds 0.399), NOT met',
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; SQLite, WORKERS=2 20000 counted, 19999 stored, NOT met',
  ]);
});
