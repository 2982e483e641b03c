import type { LoadResult } from './load.js';

export interface Row {
  config: string;
  route: string;
  result: LoadResult;
  /** requests/s over the baseline's, measured in the same run. */
  ratio: number;
  rssMb: number;
}

export function formatReport(report: { quick: boolean; rows: Row[]; facts: string[]; machine: string; seconds: number }): string {
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench${report.quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)} (${report.seconds.toFixed(0)} s). ${report.machine}.`,
    'Every ratio is against the bare `node:http` baseline measured in the same run, right before that configuration: these machines are shared and noisy, so absolute numbers move between runs; ratios much less.',
    'Access logs on at the default level (info), written to a file; one key with a quota large enough not to run out.',
    '',
    '| configuration | route | requests/s | × baseline | p50 ms | p99 ms | p99.9 ms | RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${row.config} | ${row.route} | ${Math.round(row.result.requestsPerSecond)} | ${row.ratio.toFixed(2)} | ${row.result.p50} | ${row.result.p99} | ${row.result.p999} | ${row.rssMb.toFixed(0)} |`,
    ),
    '',
    ...report.facts.map((fact) => `- ${fact}`),
    '',
  ];
  return lines.join('\n');
}
