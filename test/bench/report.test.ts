import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, type Row } from '../../bench/report.js';

const row: Row = {
  config: 'SQLite',
  route: 'rates/latest',
  summary: { requestsPerSecond: 15000.4, p50: 3.04, p99: 8.2, p999: 14.2, cpuUsPerRequest: 47.26, generatorCpuUsPerRequest: 33.84 },
  baseline: { requestsPerSecond: 25000, p50: 1.8, p99: 5.51, p999: 8 },
  roundRatios: [0.6349, 0.5201, 0.7],
  roundCpuRatios: [],
  rssMb: 95.4,
};

test('a row of the table gives the ratio of the rounds together, the lowest and highest round beside it, the server\'s CPU per answer where it was measured, and the load generator\'s', () => {
  const markdown = formatReport({ quick: false, rows: [row], facts: [], targets: { config: 'SQLite', lines: [] }, machine: 'm', method: 'how', seconds: 1 });
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| configuration |'));
  assert.equal(lines[header], '| configuration | route | requests/s | baseline req/s, same rounds | × baseline | × baseline, lowest–highest round | p50 ms | p99 ms | baseline p99 ms, same rounds | p99.9 ms | server CPU µs/request | baseline CPU µs/request, same rounds | load generator CPU µs/request | load generator CPU µs/request, baseline rounds | RSS MB |');
  assert.equal(lines[header + 1], '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  assert.equal(lines[header + 2], '| SQLite | rates/latest | 15000 | 25000 | 0.60 | 0.52–0.70 | 3.0 | 8.2 | 5.5 | 14 | 47.3 | — | 33.8 | — | 95 |');
});
