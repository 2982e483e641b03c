import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS } from '../../src/metrics/request-metrics.js';

/** The two request metrics as prom-client itself keeps and writes them, for comparison with RequestMetrics. */
export function promClientPair() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Answered requests, by route template (`unmatched` for unknown paths), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by route template',
    labelNames: ['route'] as const,
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
  });
  return {
    registry,
    observe(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status });
      duration.observe({ route }, seconds);
    },
  };
}
