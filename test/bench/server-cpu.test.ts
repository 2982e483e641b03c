import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { combine, summarise, type LoadResult } from '../../bench/load.js';
import { cpuMs } from '../../bench/processes.js';

test('the CPU time read from /proc follows what a busy process used, and a gone process reads as none', async () => {
  // A child that spins for 400 ms of CPU, then waits to be read.
  const child = spawn(process.execPath, ['-e', "const end = process.cpuUsage().user + 400e3; while (process.cpuUsage().user < end); process.stdout.write('done'); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await once(child.stdout!, 'data');
    const used = cpuMs(child.pid!);
    // Ticks of 10 ms, and the runtime's own start on top of the 400 ms spun.
    assert.ok(used >= 390 && used < 2000, `read ${used} ms`);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
  assert.equal(cpuMs(child.pid!), 0);
});

const window = (requests: number, serverCpuMs?: number): LoadResult => ({
  requests,
  seconds: 1,
  latencies: [1],
  statuses: new Map([[200, requests]]),
  errors: 0,
  ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
});

test('the CPU per answer is the windows’ CPU over their answers, and is left out when any window was not measured', () => {
  assert.equal(summarise(combine([window(10_000, 400), window(30_000, 800)])).cpuUsPerRequest, 30);
  assert.equal(summarise(combine([window(10_000, 400), window(30_000)])).cpuUsPerRequest, undefined);
  assert.equal(summarise(window(0, 0)).cpuUsPerRequest, undefined);
});
