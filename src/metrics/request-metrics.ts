import type { MetricFamilyJSON } from './metric-json.js';

/** Upper bounds of the duration histogram's buckets, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const REQUESTS = 'http_requests_total';
const REQUESTS_HELP = 'Answered requests, by route template (`unmatched` for unknown paths), method and status';
const DURATION = 'http_request_duration_seconds';
const DURATION_HELP = 'Time from receiving a request to answering it, by route template';

/** One series of the counter. */
interface Answered {
  route: string;
  method: string;
  status: number;
  count: number;
}

/** One route template's answers. */
interface RouteSeries {
  /** The counter's series by method, then status. */
  answered: Map<string, Map<number, Answered>>;
  /** Observations per bucket (not cumulative), the last one above every bound: together, the count. */
  buckets: number[];
  sum: number;
}

/**
 * The two per-answer metrics, `http_requests_total` and `http_request_duration_seconds`, kept as
 * plain numbers in maps keyed by the route, method and status themselves, and written in the
 * Prometheus text format (as prom-client writes its own) only when scraped: prom-client builds
 * and checks a label string on every update, which is too dear for every answer. Every other
 * metric stays in prom-client, where nothing is updated per answer.
 */
export class RequestMetrics {
  private readonly routes = new Map<string, RouteSeries>();
  /** Every counter series, in the order first seen (the order prom-client writes them in). */
  private readonly counted: Answered[] = [];

  observe(route: string, method: string, status: number, seconds: number): void {
    let series = this.routes.get(route);
    if (series === undefined) {
      series = { answered: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0 };
      this.routes.set(route, series);
    }
    let byStatus = series.answered.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      series.answered.set(method, byStatus);
    }
    const answered = byStatus.get(status);
    if (answered !== undefined) answered.count++;
    else {
      const first = { route, method, status, count: 1 };
      byStatus.set(status, first);
      this.counted.push(first);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
  }

  /** Both families in the text exposition format, as a prom-client registry holding just these two writes them. */
  exposition(): string {
    let requests = `# HELP ${REQUESTS} ${REQUESTS_HELP}\n# TYPE ${REQUESTS} counter\n`;
    let duration = `# HELP ${DURATION} ${DURATION_HELP}\n# TYPE ${DURATION} histogram\n`;
    for (const { route, method, status, count } of this.counted) {
      requests += `${REQUESTS}{route="${labelValue(route)}",method="${labelValue(method)}",status="${status}"} ${count}\n`;
    }
    for (const [route, series] of this.routes) {
      const routeLabel = `route="${labelValue(route)}"`;
      let cumulative = 0;
      DURATION_BUCKETS.forEach((bound, i) => {
        cumulative += series.buckets[i]!;
        duration += `${DURATION}_bucket{le="${bound}",${routeLabel}} ${cumulative}\n`;
      });
      const count = cumulative + series.buckets[DURATION_BUCKETS.length]!;
      duration += `${DURATION}_bucket{le="+Inf",${routeLabel}} ${count}\n`;
      duration += `${DURATION}_sum{${routeLabel}} ${series.sum}\n${DURATION}_count{${routeLabel}} ${count}\n`;
    }
    return `${requests}\n${duration}`;
  }

  /**
   * Both families as prom-client's `getMetricsAsJSON()` gives them (bar its `exemplar: null`), for
   * its AggregatorRegistry to sum across the workers of a cluster (cluster-metrics.ts).
   */
  asJSON(): MetricFamilyJSON[] {
    const requests: MetricFamilyJSON = { name: REQUESTS, help: REQUESTS_HELP, type: 'counter', values: [], aggregator: 'sum' };
    const duration: MetricFamilyJSON = { name: DURATION, help: DURATION_HELP, type: 'histogram', values: [], aggregator: 'sum' };
    for (const { route, method, status, count } of this.counted) requests.values.push({ value: count, labels: { route, method, status } });
    for (const [route, series] of this.routes) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((bound, i) => {
        cumulative += series.buckets[i]!;
        duration.values.push({ value: cumulative, metricName: `${DURATION}_bucket`, labels: { le: bound, route } });
      });
      const count = cumulative + series.buckets[DURATION_BUCKETS.length]!;
      duration.values.push(
        { value: count, metricName: `${DURATION}_bucket`, labels: { le: '+Inf', route } },
        { value: series.sum, metricName: `${DURATION}_sum`, labels: { route } },
        { value: count, metricName: `${DURATION}_count`, labels: { route } },
      );
    }
    return [requests, duration];
  }
}

/** A label value escaped as the text format requires (backslash, double quote, line feed). */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
