import { CONNECTIONS } from './load.js';
import { ratioOf, roundRange, type Row } from './report.js';

/** What a judged route must reach: its share of the baseline's requests/s, and at most this p99. */
export interface RouteTarget {
  ratio: number;
  p99Ms?: number;
}

/** The targets for the judged routes on the embedded default (SQLite, logs on). */
export const TARGETS = {
  latest: { ratio: 0.5, p99Ms: 10 },
  convert: { ratio: 0.45 },
  bulk: { ratio: 0.4 },
  year: { ratio: 0.3 },
} as const satisfies Record<string, RouteTarget>;

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

/**
 * One line per target, with this run's number and whether it is met, so that a run judges itself.
 * A ratio shows its rounds' spread and a p99 the baseline's own p99 beside it; three decimals for
 * a ratio and two for a p99, so that a near miss reads as one.
 */
export function targetLines(judged: Judged): string[] {
  const lines: string[] = [];
  for (const row of judged.rows) {
    if (!row.target) continue;
    const { ratio, p99Ms } = row.target;
    lines.push(`${row.route} ≥ ${ratio.toFixed(2)} × baseline: ${ratioOf(row).toFixed(3)} (rounds ${roundRange(row, 3)}), ${verdict(ratioOf(row) >= ratio)}`);
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
