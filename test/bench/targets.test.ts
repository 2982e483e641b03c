import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Row } from '../../bench/report.js';
import { targetLines } from '../../bench/targets.js';

function row(route: string, ratio: number, p99: number, rssMb: number, target?: Row['target'], roundRatios = [ratio]): Row {
  return {
    config: 'SQLite',
    route,
    summary: { requestsPerSecond: 1000 * ratio, p50: 1, p99, p999: 2 * p99 },
    baseline: { requestsPerSecond: 1000, p50: 1, p99: 4.2, p999: 8.4 },
    roundRatios,
    rssMb,
    ...(target ? { target } : {}),
  };
}

const exact = [
  { config: 'SQLite', counted: 20000, stored: 20000 },
  { config: 'PostgreSQL + Redis', counted: 20000, stored: 20000 },
];

test('when every target is reached, including at its exact bound, then every line says met', () => {
  const lines = targetLines({
    rows: [row('rates/latest', 0.6, 5, 150, { ratio: 0.6, p99Ms: 5 }, [0.5512, 0.6, 0.7049]), row('convert', 0.5, 9, 120, { ratio: 0.5 }), row('currencies', 0.1, 50, 100)],
    ingestSeconds: 3,
    startMs: 1000,
    exactness: exact,
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.60 × baseline: 0.600 (rounds 0.551–0.705), met',
    "rates/latest p99 ≤ 5 ms: 5.00 ms, met (the baseline's p99 in the same rounds: 4.20 ms)",
    'convert ≥ 0.50 × baseline: 0.500 (rounds 0.500), met',
    'RSS ≤ 150 MB after every route: at most 150 MB, met',
    'Full-history ingestion ≤ 3 s: 3.00 s, met',
    'Start with the full history loaded ≤ 1000 ms: 1000 ms, met',
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; PostgreSQL + Redis 20000 counted, 20000 stored, met',
  ]);
});

test('when a target is missed by any margin, then its line says NOT met, and a route without a target is not judged', () => {
  const lines = targetLines({
    rows: [row('rates/latest', 0.599, 5.05, 151, { ratio: 0.6, p99Ms: 5 }), row('400', 0.2, 30, 100)],
    ingestSeconds: 3.01,
    startMs: 1001,
    exactness: [exact[0]!, { config: 'SQLite, WORKERS=2', counted: 20000, stored: 19999 }],
  });
  assert.deepEqual(lines, [
    'rates/latest ≥ 0.60 × baseline: 0.599 (rounds 0.599), NOT met',
    "rates/latest p99 ≤ 5 ms: 5.05 ms, NOT met (the baseline's p99 in the same rounds: 4.20 ms)",
    'RSS ≤ 150 MB after every route: at most 151 MB, NOT met',
    'Full-history ingestion ≤ 3 s: 3.01 s, NOT met',
    'Start with the full history loaded ≤ 1000 ms: 1001 ms, NOT met',
    'Quota exact (counted = stored) on every configuration: SQLite 20000 counted, 20000 stored; SQLite, WORKERS=2 20000 counted, 19999 stored, NOT met',
  ]);
});
