import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Every response's latency in ms, as measured by the load generator. */
  latencies: number[];
  /** Responses by status, as received. */
  statuses: Map<number, number>;
  errors: number;
}

export interface LoadSpec {
  url: string;
  /** A fixed path, or a function giving each request's path. */
  path: string | (() => string);
  headers?: Record<string, string>;
  seconds?: number;
  /** A fixed number of requests instead of a timed window (for exact counting). */
  amount?: number;
}

/** 50 keep-alive connections for a timed window (or a fixed number of requests). */
export function load(spec: LoadSpec): Promise<LoadResult> {
  const nextPath = typeof spec.path === 'function' ? spec.path : () => spec.path as string;
  return new Promise((resolve, reject) => {
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: spec.url,
        connections: 50,
        ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
        headers: spec.headers ?? {},
        requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
      },
      (err, result) =>
        err
          ? reject(err)
          : resolve({ requests: result.requests.total, seconds: result.duration, latencies, statuses, errors: result.errors }),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      latencies.push(responseTime);
    });
  });
}

/** Several windows as one: requests and statuses summed, latencies pooled. */
export function combine(results: LoadResult[]): LoadResult {
  const statuses = new Map<number, number>();
  for (const result of results) for (const [status, n] of result.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  return {
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    seconds: results.reduce((sum, r) => sum + r.seconds, 0),
    latencies: results.flatMap((r) => r.latencies),
    statuses,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

export interface Summary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  p999: number;
}

export function summarise(result: LoadResult): Summary {
  const sorted = Float64Array.from(result.latencies).sort();
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { requestsPerSecond: result.requests / result.seconds, p50: at(0.5), p99: at(0.99), p999: at(0.999) };
}
