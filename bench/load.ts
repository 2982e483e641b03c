import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  p999: number;
  /** Responses by status, as received. */
  statuses: Map<number, number>;
  errors: number;
}

export interface LoadSpec {
  url: string;
  /** A fixed path, or a function giving each request's path. */
  path: string | (() => string);
  headers?: Record<string, string>;
  warmupSeconds: number;
  seconds?: number;
  /** A fixed number of requests instead of a measured window (for exact counting). */
  amount?: number;
}

/** 50 keep-alive connections: a warm-up, then the measured window. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const nextPath = typeof spec.path === 'function' ? spec.path : () => spec.path as string;
  const run = (options: { duration?: number; amount?: number }) =>
    new Promise<{ result: autocannon.Result; statuses: Map<number, number> }>((resolve, reject) => {
      const statuses = new Map<number, number>();
      const instance = autocannon(
        {
          url: spec.url,
          connections: 50,
          ...options,
          headers: spec.headers ?? {},
          requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
        },
        (err, result) => (err ? reject(err) : resolve({ result, statuses })),
      );
      instance.on('response', (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
    });
  if (spec.warmupSeconds > 0) await run({ duration: spec.warmupSeconds });
  const { result, statuses } = await run(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    statuses,
    errors: result.errors,
  };
}
