import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combine, quantile, summarise, type LoadResult } from '../../bench/load.js';

test('a quantile is the value at that share of the sorted values, the last for 1, and NaN for none', () => {
  const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(quantile(sorted, 0.5), 51);
  assert.equal(quantile(sorted, 0.99), 100);
  assert.equal(quantile(sorted, 1), 100);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

const window = (requests: number, serverCpuMs?: number, generatorCpuMs = 0): LoadResult => ({
  requests,
  seconds: 1,
  latencies: [1],
  refused: 0,
  errors: 0,
  generatorCpuMs,
  ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
});

test('the CPU per answer is the windows’ CPU over their answers, and is left out when any window was not measured', () => {
  assert.equal(summarise(combine([window(10_000, 400), window(30_000, 800)])).cpuUsPerRequest, 30);
  assert.equal(summarise(combine([window(10_000, 400), window(30_000)])).cpuUsPerRequest, undefined);
  assert.equal(summarise(window(0, 0)).cpuUsPerRequest, undefined);
});

test('the load generator’s CPU per answer is its windows’ CPU over their answers', () => {
  const summary = summarise(combine([window(10_000, 400, 300), window(30_000, 800, 900)]));
  assert.equal(summary.generatorCpuUsPerRequest, 30);
  assert.equal(summarise(window(0, 0, 5)).generatorCpuUsPerRequest, undefined);
});
