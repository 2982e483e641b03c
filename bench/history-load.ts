import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { load, summarise, type CountedResult } from './load.js';
import { peakRssMb, rssMb } from './processes.js';
import { peakRssLine } from './targets.js';

/** One year of every currency's rates: a row of the table, against the baseline sending the same bytes. */
export const YEAR_PATH = '/api/v1/rates/2025-01-01..2025-12-31';
/** The whole history, every currency (about 3.5 MB of JSON). */
export const WHOLE_HISTORY_PATH = '/api/v1/rates/1999-01-04..';

const WHOLE_HISTORY_ANSWERS = 200;
const WHOLE_HISTORY_CONNECTIONS = 4;
const FLUCTUATIONS = 1_000;

/** What the history measurements found on one server. */
export interface HistoryFigures {
  /** The first whole-history answer, computed and sent, timed by a client on the same machine. */
  coldMs: number;
  bytes: number;
  whole: { answers: number; p50: number; p99: number; rssMb: number };
  /** Whole-history fluctuations, each URL new (so each answer computed), one connection. */
  fluctuation: { answers: number; p50: number; p99: number; cpuUsPerAnswer: number | undefined };
  /** The server's peak RSS (VmHWM) once started, the history loaded, before any request. */
  startPeakMb: number;
  /** Its peak RSS (VmHWM) through every measurement here. */
  endPeakMb: number;
  /** FAIR_SHARE_ANSWERS whole-history answers produced at once, and the probes answered meanwhile. */
  fairShare: { seconds: number; probes: number; p50: number; p99: number };
}

const FAIR_SHARE_ANSWERS = 30;

/** Reads each path (argv after URL and key) to its end, all at once; in a process of its own. */
const READERS = `
const [url, key, ...paths] = process.argv.slice(1);
await Promise.all(paths.map(async (path) => {
  const answer = await fetch(url + path, { headers: { authorization: 'Bearer ' + key } });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(path + ' answered ' + answer.status);
}));
`;

/**
 * DECISIONS §14's fair share: FAIR_SHARE_ANSWERS whole-history answers, each in its own base (so
 * each computed), read by another process, while this one asks /health and a kept rates/latest
 * one after the other: their latencies while the heavy answers are produced.
 */
async function measureFairShare(url: string, key: string, bases: readonly string[]): Promise<HistoryFigures['fairShare']> {
  const latest = '/api/v1/rates/latest';
  await (await fetch(url + latest, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
  const paths = bases.slice(0, FAIR_SHARE_ANSWERS).map((base) => `${WHOLE_HISTORY_PATH}?base=${base}&format=ndjson`);
  const started = performance.now();
  const readers = spawn(process.execPath, ['--input-type=module', '-e', READERS, url, key, ...paths], { stdio: 'inherit' });
  let running = true;
  const done = once(readers, 'exit').then(([code]) => {
    running = false;
    if (code !== 0) throw new Error(`the whole-history readers exited with ${String(code)}`);
  });
  const latencies: number[] = [];
  while (running) {
    for (const [path, headers] of [['/health', {}], [latest, { authorization: `Bearer ${key}` }]] as const) {
      const asked = performance.now();
      const answer = await fetch(url + path, { headers });
      await answer.arrayBuffer();
      if (running) latencies.push(performance.now() - asked);
    }
  }
  await done;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * q) - 1)] ?? NaN;
  return { seconds: (performance.now() - started) / 1000, probes: latencies.length, p50: at(0.5), p99: at(0.99) };
}

function allAnswered(what: string, result: CountedResult, answers: number): void {
  if (result.errors > 0 || result.refused > 0 || result.requests < answers) {
    throw new Error(`${what}: ${result.requests} answers, ${result.refused} refused, ${result.errors} without an answer`);
  }
}

/**
 * The whole history asked WHOLE_HISTORY_ANSWERS times at WHOLE_HISTORY_CONNECTIONS connections
 * (the server's RSS read after), then whole-history fluctuations on URLs that never repeat, in
 * every base and from every start of 1998, so that none comes from the response cache.
 */
export async function measureHistory(url: string, key: string, pid: number, bases: readonly string[], signal: AbortSignal): Promise<HistoryFigures> {
  const headers = { authorization: `Bearer ${key}` };
  const startPeakMb = peakRssMb(pid);
  const started = performance.now();
  const first = await fetch(url + WHOLE_HISTORY_PATH, { headers });
  const bytes = (await first.arrayBuffer()).byteLength;
  const coldMs = performance.now() - started;
  if (first.status !== 200) throw new Error(`${WHOLE_HISTORY_PATH} answered ${first.status}`);

  const whole = await load({ url, path: WHOLE_HISTORY_PATH, headers, amount: WHOLE_HISTORY_ANSWERS, connections: WHOLE_HISTORY_CONNECTIONS, serverPid: pid, signal });
  allAnswered('the whole history', whole, WHOLE_HISTORY_ANSWERS);
  const wholeSummary = summarise(whole);
  const rss = rssMb(pid);

  const starts = Array.from({ length: 369 }, (_, day) => new Date(Date.UTC(1998, 0, 1 + day)).toISOString().slice(0, 10));
  const paths = starts.flatMap((start) => bases.map((base) => `/api/v1/fluctuation/${start}..?base=${base}`));
  const fluctuation = await load({ url, path: paths, headers, amount: FLUCTUATIONS, connections: 1, serverPid: pid, signal });
  allAnswered('whole-history fluctuations', fluctuation, FLUCTUATIONS);
  const fluctuationSummary = summarise(fluctuation);
  const fairShare = await measureFairShare(url, key, bases);
  return {
    startPeakMb,
    endPeakMb: peakRssMb(pid),
    fairShare,
    coldMs,
    bytes,
    whole: { answers: whole.requests, p50: wholeSummary.p50, p99: wholeSummary.p99, rssMb: rss },
    fluctuation: {
      answers: fluctuation.requests,
      p50: fluctuationSummary.p50,
      p99: fluctuationSummary.p99,
      cpuUsPerAnswer: fluctuationSummary.cpuUsPerRequest,
    },
  };
}

/** The targets for history: the whole history's p99 and the RSS after it, and a fluctuation's server time. */
export const HISTORY_TARGETS = { wholeP99Ms: 250, rssMb: 150, fluctuationMs: 5, probeP99Ms: 50 } as const;

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const cpuMsText = (us: number | undefined) => (us === undefined ? '—' : (us / 1000).toFixed(2));

export function historyLines(config: string, peakLimitMb: number, figures: HistoryFigures): { facts: string[]; targets: string[] } {
  const { whole, fluctuation, fairShare } = figures;
  return {
    facts: [
      `${config}: the whole history (${WHOLE_HISTORY_PATH}, ${(figures.bytes / 1e6).toFixed(2)} MB of JSON): the first answer, computed, ${figures.coldMs.toFixed(0)} ms; then ${whole.answers} answers at ${WHOLE_HISTORY_CONNECTIONS} connections (kept by the response cache), p50 ${whole.p50.toFixed(1)} ms, p99 ${whole.p99.toFixed(1)} ms; server RSS after them ${whole.rssMb.toFixed(0)} MB`,
      `${config}: the server's peak RSS (VmHWM) once the history is loaded, before any request: ${figures.startPeakMb.toFixed(0)} MB`,
      `${config}: ${FAIR_SHARE_ANSWERS} whole-history answers at once (each in its own base, as NDJSON, read by another process) took ${fairShare.seconds.toFixed(1)} s; meanwhile ${fairShare.probes} probes (/health and a kept rates/latest, one after the other): p50 ${fairShare.p50.toFixed(1)} ms, p99 ${fairShare.p99.toFixed(1)} ms`,
      `${config}: ${fluctuation.answers} whole-history fluctuations, every URL new (31 bases × every start of 1998), one connection: p50 ${fluctuation.p50.toFixed(2)} ms, p99 ${fluctuation.p99.toFixed(2)} ms, server CPU ${cpuMsText(fluctuation.cpuUsPerAnswer)} ms per answer`,
    ],
    targets: [
      `${config}: whole history p99 ≤ ${HISTORY_TARGETS.wholeP99Ms} ms at ${WHOLE_HISTORY_CONNECTIONS} connections: ${whole.p99.toFixed(1)} ms, ${verdict(whole.p99 <= HISTORY_TARGETS.wholeP99Ms)}`,
      `${config}: RSS ≤ ${HISTORY_TARGETS.rssMb} MB after ${whole.answers} whole-history answers: ${whole.rssMb.toFixed(0)} MB, ${verdict(whole.rssMb <= HISTORY_TARGETS.rssMb)}`,
      `${config}: /health and a kept rates/latest p99 ≤ ${HISTORY_TARGETS.probeP99Ms} ms while ${FAIR_SHARE_ANSWERS} whole-history answers are produced: ${fairShare.p99.toFixed(1)} ms, ${verdict(fairShare.p99 <= HISTORY_TARGETS.probeP99Ms)}`,
      peakRssLine(`${config}, the whole history, fluctuations and fair share`, figures.endPeakMb, peakLimitMb),
      `${config}: whole-history fluctuation ≤ ${HISTORY_TARGETS.fluctuationMs} ms of server time (the server's CPU per answer, the HTTP request and its count included): ${cpuMsText(fluctuation.cpuUsPerAnswer)} ms, ${verdict(fluctuation.cpuUsPerAnswer !== undefined && fluctuation.cpuUsPerAnswer / 1000 <= HISTORY_TARGETS.fluctuationMs)}`,
    ],
  };
}
