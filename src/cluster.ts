import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { flushLogger } from './logger.js';
import { aggregateWorkerMetrics } from './metrics/cluster-metrics.js';

/** The longest wait before another try at a worker that could not start. */
const MAX_RETRY_MS = 30_000;

/**
 * WORKERS=N: the primary only supervises; N workers each run the whole server on the shared
 * port (node:cluster hands connections round-robin). The stores keep the workers consistent
 * exactly as they keep separate instances consistent. One of the first workers that dies before
 * it could listen (bad configuration, unreachable database) stops the whole server with exit
 * code 1 rather than crash-looping. A worker that dies after it was serving is replaced; a
 * replacement that cannot start (the database down for now) is tried again, waiting longer each
 * time, while the others serve on. SIGTERM or SIGINT, once or repeated, drains every worker and
 * exits 0 once all have stopped. A scrape of /metrics, whichever worker takes it, is answered
 * with every serving worker's metrics summed here (metrics/cluster-metrics.ts).
 */
export function superviseWorkers(count: number, log: Logger): void {
  let stopping = false;
  const first = new WeakSet<Worker>();
  const served = new WeakSet<Worker>();
  const replacements = new Set<NodeJS.Timeout>();
  /** Replacements in a row that could not start. */
  let failedStarts = 0;
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  const exit = (code: number) => void flushLogger(log).then(() => process.exit(code));

  const stopAll = () => {
    for (const timer of replacements) clearTimeout(timer);
    replacements.clear();
    for (const worker of alive()) worker.process.kill('SIGTERM');
  };

  const replace = (delayMs: number) => {
    const timer = setTimeout(() => {
      replacements.delete(timer);
      if (!stopping) cluster.fork();
    }, delayMs);
    replacements.add(timer);
  };

  cluster.on('listening', (worker) => {
    served.add(worker);
    failedStarts = 0;
  });
  aggregateWorkerMetrics(() => alive().filter((worker) => served.has(worker)));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (alive().length === 0) exit(Number(process.exitCode ?? 0));
      return;
    }
    const pid = worker.process.pid;
    if (served.has(worker)) {
      log.error(`worker ${pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
      return replace(1000);
    }
    if (first.has(worker)) {
      log.fatal(`worker ${pid} failed to start (exit code ${code}); stopping`);
      stopping = true;
      process.exitCode = 1;
      stopAll();
      if (alive().length === 0) exit(1);
      return;
    }
    const delayMs = Math.min(MAX_RETRY_MS, 1000 * 2 ** ++failedStarts);
    log.error(`worker ${pid} could not start (exit code ${code}); trying again in ${delayMs / 1000} s`);
    replace(delayMs);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping ${count} workers`);
    stopAll();
    if (alive().length === 0) exit(0);
  };
  // `on`, not `once`: a repeated signal (systemd signals the whole group, then the primary relays
  // it) must not fall back to the default action, which kills at once.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < count; i++) first.add(cluster.fork());
}
