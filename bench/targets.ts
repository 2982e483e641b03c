import { CONNECTIONS } from './load.js';
import { ratioOf, roundRange, type Row } from './report.js';

/**
 * What a judged route must keep: its share of the baseline's requests/s (a floor against
 * regressions), its server CPU per answer against the baseline's in the same rounds (what an
 * answer costs the host), and at most this p99.
 */
export interface RouteTarget {
  floor: number;
  cpuRatio?: number;
  p99Ms?: number;
}

/**
 * The targets for the judged routes on the embedded default (SQLite, logs on): the throughput
 * floors, and CPU per answer as a multiple of bare node:http's sending the same bytes.
 */
export const TARGETS = {
  latest: { floor: 0.3, cpuRatio: 1.8, p99Ms: 10 },
  convert: { floor: 0.28, cpuRatio: 2.0 },
  bulk: { floor: 0.18, cpuRatio: 3.0 },
  year: { floor: 0.3 },
} as const satisfies Record<string, RouteTarget>;

/** The most a server's peak RSS (VmHWM) may reach through the whole bench, in MB: on the ECB's history alone, and with every source. */
export const PEAK_RSS_MB = { ecb: 128, everySource: 160 } as const;

/** A configuration's requests counted by the benchmark and stored for the key, at the end. */
export interface Exactness {
  config: string;
  counted: number;
  stored: number;
}

export interface Judged {
  /** The embedded default's rows; those with a `target` are judged on it. */
  rows: Row[];
  exactness: Exactness[];
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** The line judging a row's server CPU per answer against `limit` times the baseline's. */
function cpuLine(row: Row, limit: number): string {
  const head = `${row.route} server CPU per answer ≤ ${limit.toFixed(1)} × the baseline's`;
  const { cpuUsPerRequest: service } = row.summary;
  const { cpuUsPerRequest: base } = row.baseline;
  if (service === undefined || base === undefined) return `${head}: not measured, NOT met`;
  const measured = service / base;
  return `${head}: ${measured.toFixed(3)} (rounds ${roundRange(row.roundCpuRatios, 3)}; ${service.toFixed(1)} µs against ${base.toFixed(1)} µs), ${verdict(measured <= limit)}`;
}

/**
 * One line per target, with this run's number and whether it is met, so that a run judges itself.
 * A ratio shows its rounds' spread and a p99 the baseline's own p99 beside it; three decimals for
 * a ratio and two for a p99, so that a near miss reads as one.
 */
export function targetLines(judged: Judged): string[] {
  const lines: string[] = [];
  for (const row of judged.rows) {
    if (!row.target) continue;
    const { floor, cpuRatio, p99Ms } = row.target;
    lines.push(`${row.route} ≥ ${floor.toFixed(2)} × baseline (floor): ${ratioOf(row).toFixed(3)} (rounds ${roundRange(row.roundRatios, 3)}), ${verdict(ratioOf(row) >= floor)}`);
    if (cpuRatio !== undefined) lines.push(cpuLine(row, cpuRatio));
    if (p99Ms !== undefined) {
      lines.push(
        `${row.route} p99 ≤ ${p99Ms} ms at ${CONNECTIONS} connections: ${row.summary.p99.toFixed(2)} ms, ${verdict(row.summary.p99 <= p99Ms)} (the baseline's p99 in the same rounds: ${row.baseline.p99.toFixed(2)} ms)`,
      );
    }
  }
  const exact = judged.exactness.every(({ counted, stored }) => counted === stored);
  lines.push(`Quota exact (counted = stored) on every configuration: ${judged.exactness.map(({ config, counted, stored }) => `${config} ${counted} counted, ${stored} stored`).join('; ')}, ${verdict(exact)}`);
  return lines;
}

/** The line judging a server's peak RSS (VmHWM) through its part of the bench against `limitMb`. */
export const peakRssLine = (server: string, peakMb: number, limitMb: number) =>
  `${server}: peak RSS (VmHWM) ≤ ${limitMb} MB through the whole bench: ${peakMb.toFixed(0)} MB, ${verdict(peakMb <= limitMb)}`;
