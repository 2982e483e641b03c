import autocannon from 'autocannon';
import { cpuMs } from './processes.js';

export interface LoadResult {
  requests: number;
  seconds: number;
  /** The latency in ms of every request sent in the window, as measured by the load generator. */
  latencies: number[];
  /** Answers with a status of 400 or more. */
  refused: number;
  /** Requests that got no answer: a socket error, or no answer in time. */
  errors: number;
  /** CPU time the server process (and its workers) used during the window, in ms, when its pid was given. */
  serverCpuMs?: number;
  /**
   * CPU time the load generator (autocannon in this process, or wrk) used during the window, in
   * ms. It shares the machine's cores with the server, so what an answer costs it bounds the
   * ratio as much as what it costs the server.
   */
  generatorCpuMs: number;
}

/** autocannon's result, which also has every answer's exact status. */
export interface CountedResult extends LoadResult {
  /** Answers by status, as received. */
  statuses: Map<number, number>;
}

export interface LoadSpec {
  url: string;
  /**
   * A fixed path, or varied paths dealt out among the connections. Each connection cycles through
   * its share, so a path comes back only after about all the others have been sent.
   */
  path: string | readonly string[];
  headers?: Record<string, string>;
  seconds?: number;
  /** A fixed number of requests instead of a timed window (for exact counting). */
  amount?: number;
  /** Keep-alive connections (default CONNECTIONS). */
  connections?: number;
  /** The server's process, whose CPU time over the window is then measured. */
  serverPid?: number;
  /** Ends the load at once, rejecting with the signal's reason (the server died: Running.died). */
  signal?: AbortSignal;
}

export const CONNECTIONS = 50;

/**
 * autocannon: 50 keep-alive connections for a timed window (or a fixed number of requests, every
 * status read: the benchmark's exactness check; wrk-load.ts sends the timed windows where wrk is
 * installed).
 *
 * Every request is encoded before the window opens, not by autocannon's per-request hook
 * (`setupRequest`): encoding as they are sent costs the generator, on the server's cores, enough
 * CPU to measure the generator more than the server. Varied paths are dealt out among the
 * connections, each cycling through its own share.
 */
export function load(spec: LoadSpec): Promise<CountedResult> {
  const { path } = spec;
  const connections = spec.connections ?? CONNECTIONS;
  const varied = typeof path === 'string' ? {} : dealtOut(path, connections);
  return new Promise((resolve, reject) => {
    if (spec.signal?.aborted) return reject(spec.signal.reason);
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const cpuBefore = spec.serverPid === undefined ? undefined : cpuMs(spec.serverPid);
    const encoding = performance.now();
    let generatorBefore: NodeJS.CpuUsage | undefined;
    const instance = autocannon(
      {
        url: spec.url,
        connections,
        ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
        headers: spec.headers ?? {},
        requests: [{ path: typeof path === 'string' ? path : path[0]! }],
        ...varied,
      },
      (err, result) => {
        // One signal serves a server's every load: a finished load leaves no listener on it.
        spec.signal?.removeEventListener('abort', stopped);
        if (err) return reject(err);
        const generator = process.cpuUsage(generatorBefore);
        resolve({
          requests: result.requests.total,
          // autocannon's duration starts before the connections are made, so it would include the encoding.
          seconds: result.duration - encodingSeconds,
          latencies,
          statuses,
          refused: [...statuses].reduce((sum, [status, n]) => sum + (status >= 400 ? n : 0), 0),
          errors: result.errors,
          ...(cpuBefore === undefined ? {} : { serverCpuMs: cpuMs(spec.serverPid!) - cpuBefore }),
          generatorCpuMs: (generator.user + generator.system) / 1000,
        });
      },
    );
    function stopped() {
      instance.stop();
      reject(spec.signal!.reason);
    }
    spec.signal?.addEventListener('abort', stopped, { once: true });
    // autocannon() made every connection, and encoded its requests, before returning; the window opens after.
    const encodingSeconds = (performance.now() - encoding) / 1000;
    generatorBefore = process.cpuUsage();
    // A connection's first request goes out as it is made, before the window opens: its time
    // includes connecting and encoding the other connections' requests, not the server's work.
    const timed = new WeakSet<autocannon.Client>();
    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      if (timed.has(client)) latencies.push(responseTime);
      else timed.add(client);
    });
  });
}

/** autocannon's per-connection hook giving each connection its own share of `paths`, in order. */
function dealtOut(paths: readonly string[], connections: number): Pick<autocannon.Options, 'setupClient'> {
  const perConnection = Math.ceil(paths.length / connections);
  let next = 0;
  return {
    setupClient: (client) => {
      client.setRequests(paths.slice(next * perConnection, (next + 1) * perConnection).map((one) => ({ path: one })));
      next = (next + 1) % connections;
    },
  };
}

/** Several windows as one: requests, refusals, errors and CPU summed, latencies pooled. */
export function combine(results: LoadResult[]): LoadResult {
  const cpuMeasured = results.length > 0 && results.every((r) => r.serverCpuMs !== undefined);
  return {
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    seconds: results.reduce((sum, r) => sum + r.seconds, 0),
    latencies: results.flatMap((r) => r.latencies),
    refused: results.reduce((sum, r) => sum + r.refused, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    generatorCpuMs: results.reduce((sum, r) => sum + r.generatorCpuMs, 0),
    ...(cpuMeasured ? { serverCpuMs: results.reduce((sum, r) => sum + r.serverCpuMs!, 0) } : {}),
  };
}

export interface Summary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  p999: number;
  /**
   * The server's CPU time per answer, in µs, when it was measured: what an answer costs the
   * server, where requests/s also says how much of the machine it got.
   */
  cpuUsPerRequest?: number;
  /** The load generator's CPU time per answer, in µs (none when no answer came). */
  generatorCpuUsPerRequest?: number;
}

/** The value at quantile `q` (0–1) of ascending `sorted` values; NaN when there are none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function summarise(result: LoadResult): Summary {
  const sorted = Float64Array.from(result.latencies).sort();
  const at = (q: number) => quantile(sorted, q);
  return {
    requestsPerSecond: result.requests / result.seconds,
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
    ...(result.serverCpuMs === undefined || result.requests === 0 ? {} : { cpuUsPerRequest: (result.serverCpuMs * 1000) / result.requests }),
    ...(result.requests === 0 ? {} : { generatorCpuUsPerRequest: (result.generatorCpuMs * 1000) / result.requests }),
  };
}
