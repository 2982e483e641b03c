import { ratioOf, roundRange, type Row } from './report.js';

/** What a judged route must reach: its share of the baseline's requests/s, and at most this p99. */
export interface RouteTarget {
  ratio: number;
  p99Ms?: number;
}

/** The targets for the embedded default (SQLite, logs on), outside the per-route ones. */
const LIMITS = { ingestSeconds: 3, startMs: 1000, rssMb: 150 } as const;

/** A configuration's requests counted by the benchmark and stored for the key, at the end. */
export interface Exactness {
  config: string;
  counted: number;
  stored: number;
}

export interface Judged {
  /** The embedded default's rows; those with a `target` are judged on it. */
  rows: Row[];
  ingestSeconds: number;
  startMs: number;
  exactness: Exactness[];
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/**
 * One line per target, with this run's number and whether it is met: a run judges itself, a
 * ratio shows the spread of its rounds beside it, and a p99 names the bare baseline's own p99 in
 * the same rounds. Three decimals for a
 * ratio, two for a p99, so that a near miss reads as one.
 */
export function targetLines(judged: Judged): string[] {
  const lines: string[] = [];
  for (const row of judged.rows) {
    if (!row.target) continue;
    const { ratio, p99Ms } = row.target;
    lines.push(`${row.route} ≥ ${ratio.toFixed(2)} × baseline: ${ratioOf(row).toFixed(3)} (rounds ${roundRange(row, 3)}), ${verdict(ratioOf(row) >= ratio)}`);
    if (p99Ms !== undefined) {
      lines.push(
        `${row.route} p99 ≤ ${p99Ms} ms: ${row.summary.p99.toFixed(2)} ms, ${verdict(row.summary.p99 <= p99Ms)} (the baseline's p99 in the same rounds: ${row.baseline.p99.toFixed(2)} ms)`,
      );
    }
  }
  const rss = Math.max(...judged.rows.map((row) => row.rssMb));
  lines.push(`RSS ≤ ${LIMITS.rssMb} MB after every route: at most ${rss.toFixed(0)} MB, ${verdict(rss <= LIMITS.rssMb)}`);
  lines.push(`Full-history ingestion ≤ ${LIMITS.ingestSeconds} s: ${judged.ingestSeconds.toFixed(2)} s, ${verdict(judged.ingestSeconds <= LIMITS.ingestSeconds)}`);
  lines.push(`Start with the full history loaded ≤ ${LIMITS.startMs} ms: ${judged.startMs.toFixed(0)} ms, ${verdict(judged.startMs <= LIMITS.startMs)}`);
  const exact = judged.exactness.every(({ counted, stored }) => counted === stored);
  lines.push(`Quota exact (counted = stored) on every configuration: ${judged.exactness.map(({ config, counted, stored }) => `${config} ${counted} counted, ${stored} stored`).join('; ')}, ${verdict(exact)}`);
  return lines;
}
