import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { load, summarise } from '../load.js';
import { cpuMs, spawnAndWait } from '../processes.js';
import { wrkInstalled, wrkLoad } from '../wrk-load.js';

test('the CPU time read from /proc follows what a busy process used, and a gone process reads as none', async () => {
  // A child that spins for 400 ms by the clock (no system calls in the loop: on a host with costly
  // ones, a loop asking for its own CPU time spent most of it in the kernel), then reports the CPU
  // time it used, as its runtime counts it, and waits to be read.
  const spin = "const end = Date.now() + 400; while (Date.now() < end); const { user, system } = process.cpuUsage(); process.stdout.write(String((user + system) / 1000)); setInterval(() => {}, 1000);";
  const child = spawn(process.execPath, ['-e', spin], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [reported] = await once(child.stdout!, 'data');
    const own = Number(String(reported));
    const used = cpuMs(child.pid!);
    assert.ok(own >= 100, `the child was busy (${own} ms by its own count)`);
    // /proc counts in ticks of 10 ms, and the child runs a little more before it is read.
    assert.ok(Math.abs(used - own) <= 40, `read ${used} ms, the child counted ${own} ms`);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
  assert.equal(cpuMs(child.pid!), 0);
});

// Answers each request after a fixed 2 ms of its own CPU: whatever the window measures for the
// generator, the server's work must not be counted in it.
const BUSY_SERVER = `
  require('node:http').createServer((request, response) => {
    const end = performance.now() + 2; while (performance.now() < end);
    response.end('ok');
  }).listen(Number(process.env.PORT), process.env.HOST);
`;

for (const [generator, timed] of [['autocannon', load], ['wrk', wrkLoad]] as const) {
  // Without wrk the benchmark sends its windows with autocannon, so there is no wrk to check.
  const skip = generator === 'wrk' && !wrkInstalled() && 'wrk is missing (apt-get install wrk)';
  test(`a window of ${generator} measures the load generator’s own CPU, not the server’s`, { timeout: 60_000, skip }, async (t) => {
    const server = await spawnAndWait(['-e', BUSY_SERVER], { ...process.env }, join(tempDir(t), 'server.log'), '/');
    t.after(() => server.stop());
    const result = await timed({ url: server.url, path: '/', seconds: 1, serverPid: server.child.pid! });
    const summary = summarise(result);
    assert.ok(result.requests > 50, `answers came (${result.requests})`);
    // The server spends 2 ms of CPU an answer; sending a request and reading 'ok' costs the
    // generator a small fraction of that.
    assert.ok(summary.cpuUsPerRequest! >= 1_500, `server ${summary.cpuUsPerRequest} µs an answer`);
    assert.ok(summary.generatorCpuUsPerRequest! > 0 && summary.generatorCpuUsPerRequest! < 1_000, `generator ${summary.generatorCpuUsPerRequest} µs an answer`);
  });
}
