import type { Summary } from './load.js';
import type { RouteTarget } from './targets.js';

export interface Row {
  config: string;
  route: string;
  summary: Summary;
  /** The baseline in the windows paired with this row's: what the machine itself gave at that moment. */
  baseline: Summary;
  /**
   * Each round's service requests over its baseline window's: their spread shows how far one
   * run's ratio can be trusted on this machine.
   */
  roundRatios: number[];
  /** Each round's service CPU per answer over its baseline window's; empty where CPU was not measured. */
  roundCpuRatios: number[];
  rssMb: number;
  /** Set on the rows the targets judge (the embedded default's). */
  target?: RouteTarget;
}

/** A row's requests over the baseline's, in the same rounds. */
export const ratioOf = (row: Row) => row.summary.requestsPerSecond / row.baseline.requestsPerSecond;

const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

/** A row's server CPU per answer in µs, or a dash where it was not measured. */
export const cpuText = (summary: Summary) => (summary.cpuUsPerRequest === undefined ? '—' : summary.cpuUsPerRequest.toFixed(1));

/** The load generator's CPU per answer in µs, or a dash where no answer came. */
export const generatorCpuText = (summary: Summary) => (summary.generatorCpuUsPerRequest === undefined ? '—' : summary.generatorCpuUsPerRequest.toFixed(1));

/** The lowest and highest of a row's round ratios, as `0.52–0.81` (one round: its ratio alone; none: a dash). */
export function roundRange(ratios: readonly number[], digits = 2): string {
  if (ratios.length === 0) return '—';
  const low = Math.min(...ratios).toFixed(digits);
  const high = Math.max(...ratios).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
}

export function formatReport(report: { quick: boolean; rows: Row[]; facts: string[]; targets: { config: string; lines: string[] }; machine: string; method: string; seconds: number }): string {
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench${report.quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)} (${report.seconds.toFixed(0)} s). ${report.machine}.`,
    'The baseline is a bare `node:http` server sending the bytes of the rates/latest answer, measured in windows alternating with the service\'s: these machines are shared and noisy, so absolute numbers move within a run; ratios of windows taken side by side much less.',
    report.method,
    'Access logs on at the default level (info), written to a file; one key with a quota large enough not to run out.',
    '',
    '| configuration | route | requests/s | baseline req/s, same rounds | × baseline | × baseline, lowest–highest round | p50 ms | p99 ms | baseline p99 ms, same rounds | p99.9 ms | server CPU µs/request | baseline CPU µs/request, same rounds | load generator CPU µs/request | load generator CPU µs/request, baseline rounds | RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${row.config} | ${row.route} | ${Math.round(row.summary.requestsPerSecond)} | ${Math.round(row.baseline.requestsPerSecond)} | ${ratioOf(row).toFixed(2)} | ${roundRange(row.roundRatios)} | ${ms(row.summary.p50)} | ${ms(row.summary.p99)} | ${ms(row.baseline.p99)} | ${ms(row.summary.p999)} | ${cpuText(row.summary)} | ${cpuText(row.baseline)} | ${generatorCpuText(row.summary)} | ${generatorCpuText(row.baseline)} | ${row.rssMb.toFixed(0)} |`,
    ),
    '',
    ...report.facts.map((fact) => `- ${fact}`),
    '',
    `## Targets, on the embedded default (${report.targets.config}, logs on)${report.quick ? ' — a quick run: one round per route, indicative only' : ''}`,
    '',
    ...report.targets.lines.map((line) => `- ${line}`),
    '',
  ];
  return lines.join('\n');
}
