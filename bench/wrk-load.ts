import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, type LoadResult, type LoadSpec } from './load.js';
import { cpuMs } from './processes.js';

/** Whether `wrk` is on this machine's PATH (Debian: `apt-get install wrk`). */
export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * What the window's wrk runs. Varied paths are read from the file named after `--`, each formatted
 * into a request once, before the window (wrk calls `init` before its clock starts), and sent in
 * turn, so a path comes back only after all the others have been sent; a fixed path defines no
 * `request`, so wrk sends its one request as it made it. `done` prints the summary and every
 * bucket of wrk's latency histogram (µs, as `value:count`) on one line for the caller.
 */
const SCRIPT = `
function init(args)
  if args[1] == nil then return end
  local requests, sent = {}, 0
  for path in io.lines(args[1]) do requests[#requests + 1] = wrk.format(nil, path) end
  request = function()
    sent = sent % #requests + 1
    return requests[sent]
  end
end
function done(summary, latency)
  local e = summary.errors
  local out = { 'WRK', summary.duration, summary.requests, e.status, e.connect + e.read + e.write + e.timeout, e.timeout }
  for i = 1, #latency do
    local value, count = latency(i)
    out[#out + 1] = value .. ':' .. count
  end
  io.write(table.concat(out, ' '), '\\n')
end
`;

/**
 * One timed window of wrk (one thread, 50 keep-alive connections): the generator the issue names
 * beside autocannon, written in C. It spends a fraction of autocannon's CPU per answer, so the
 * servers, not the generator, are what run out.
 *
 * wrk knows an answer's status only as below 400 or not, so `refused` is what it gives; the exact
 * statuses of a fixed number of requests are autocannon's (`load` with `amount`).
 */
export function wrkLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.amount !== undefined) return Promise.reject(new Error('wrk sends for a time, not a number of requests: use load()'));
  if (spec.signal?.aborted) return Promise.reject(spec.signal.reason);
  const dir = mkdtempSync(join(tmpdir(), 'currency-rates-wrk-'));
  const script = join(dir, 'window.lua');
  writeFileSync(script, SCRIPT);
  const { path } = spec;
  const varied = typeof path !== 'string';
  if (varied) writeFileSync(join(dir, 'paths'), `${path.join('\n')}\n`);
  const first = varied ? path[0]! : path;
  const headers = Object.entries(spec.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${spec.seconds ?? 5}s`, '-s', script, ...headers, spec.url + first, ...(varied ? ['--', join(dir, 'paths')] : [])];
  const cpuBefore = spec.serverPid === undefined ? undefined : cpuMs(spec.serverPid);
  // bash's `times` reports the CPU its children used, from the kernel's own accounting of wrk. In
  // a process group of their own, so that stopping the window stops wrk, not only its shell.
  const child = spawn('bash', ['-c', 'wrk "$@"; status=$?; times; exit $status', 'bash', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stopped = () => process.kill(-child.pid!, 'SIGTERM');
  spec.signal?.addEventListener('abort', stopped, { once: true });
  return new Promise<LoadResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      spec.signal?.removeEventListener('abort', stopped);
      if (spec.signal?.aborted) return reject(spec.signal.reason);
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${stderr.trim()}`));
      try {
        const serverCpuMs = cpuBefore === undefined ? undefined : cpuMs(spec.serverPid!) - cpuBefore;
        resolve(readOutput(stdout, serverCpuMs));
      } catch (err) {
        reject(err);
      }
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The window's result from what the bash wrapper printed: the script's WRK line, then `times`. */
function readOutput(stdout: string, serverCpuMs: number | undefined): LoadResult {
  const line = stdout.split('\n').find((one) => one.startsWith('WRK '));
  const times = stdout.trimEnd().split('\n').at(-1)!;
  const cpu = [...times.matchAll(/(\d+)m([\d.]+)s/g)].map(([, minutes, seconds]) => Number(minutes) * 60_000 + Number(seconds) * 1000);
  if (!line || cpu.length !== 2) throw new Error(`unexpected output from wrk:\n${stdout}`);
  const [, duration, requests, refused, errors, timeouts, ...buckets] = line.trim().split(' ');
  const histogram = new Map(buckets.map((bucket) => bucket.split(':').map(Number) as [number, number]));
  const latencies = latenciesMs(uncorrected(histogram, correctionInterval(Number(duration), Number(requests))), Number(requests), Number(timeouts));
  return {
    requests: Number(requests),
    seconds: Number(duration) / 1e6,
    latencies,
    refused: Number(refused),
    errors: Number(errors),
    generatorCpuMs: cpu[0]! + cpu[1]!,
    ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
  };
}

/**
 * The interval wrk 4 uses to correct its histogram for coordinated omission: the window's
 * duration over the answers per connection, both in whole units as wrk divides them.
 */
export function correctionInterval(durationUs: number, requests: number): number | undefined {
  const perConnection = Math.floor(requests / CONNECTIONS);
  return perConnection > 0 ? Math.floor(durationUs / perConnection) : undefined;
}

/**
 * The latencies wrk measured, before its correction. wrk 4 adds, for every answer that took at
 * least twice `interval`, answers it supposes a client sending on a schedule would have waited
 * for (at the latency less one, two… intervals, while above one interval): an estimate for an
 * open-loop load. Ours is closed-loop — 50 connections, each sending when answered — as
 * autocannon's is, and the targets are for that, so the measured samples are what is kept. The
 * correction only ever adds to a bucket the counts of buckets a whole number of intervals above
 * it, so it is undone from the top down.
 */
export function uncorrected(histogram: ReadonlyMap<number, number>, interval: number | undefined): Map<number, number> {
  if (interval === undefined || histogram.size === 0) return new Map(histogram);
  const measured = new Map<number, number>();
  /** For a latency, the measured answers at one, two… intervals above it. */
  const above = new Map<number, number>();
  // A latency wrk holds no answer for had none measured and none added: nothing above it either.
  for (const value of [...histogram.keys()].sort((a, b) => b - a)) {
    const recorded = histogram.get(value)!;
    const added = value > interval ? (measured.get(value + interval) ?? 0) + (above.get(value + interval) ?? 0) : 0;
    if (added > 0) above.set(value, added);
    const own = recorded - added;
    if (own < 0) throw new Error(`wrk's latency histogram is not one its correction made (at ${value} µs: ${recorded} recorded, ${added} added)`);
    if (own > 0) measured.set(value, own);
  }
  return measured;
}

/** The samples of a histogram of µs, in ms; they must account for every answer wrk counted. */
function latenciesMs(histogram: ReadonlyMap<number, number>, requests: number, timeouts: number): number[] {
  const latencies: number[] = [];
  for (const [value, count] of histogram) for (let i = 0; i < count; i++) latencies.push(value / 1000);
  if (latencies.length > requests || latencies.length < requests - timeouts) {
    throw new Error(`wrk's latencies (${latencies.length}) do not account for its ${requests} answers`);
  }
  return latencies;
}
