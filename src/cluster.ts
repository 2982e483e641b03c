import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import { aggregateWorkerMetrics } from './metrics/cluster-metrics.js';

/**
 * WORKERS=N: the primary only supervises; N workers each run the whole server on the shared
 * port (node:cluster hands connections round-robin). The stores keep the workers consistent
 * exactly as they keep separate instances consistent. A worker that dies after it was serving is
 * replaced; one that dies before it could listen (bad configuration, unreachable database)
 * stops the whole server with exit code 1 rather than crash-looping. SIGTERM or SIGINT drains
 * every worker and exits 0 once all have stopped. A scrape of /metrics, whichever worker takes
 * it, is answered with every serving worker's metrics summed here (metrics/cluster-metrics.ts).
 */
export function superviseWorkers(count: number, log: FastifyBaseLogger): void {
  let stopping = false;
  const served = new WeakSet<Worker>();
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);

  const stopAll = () => {
    for (const worker of alive()) worker.process.kill('SIGTERM');
  };

  cluster.on('listening', (worker) => served.add(worker));
  aggregateWorkerMetrics(() => alive().filter((worker) => served.has(worker)));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (alive().length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!served.has(worker)) {
      log.fatal(`worker ${worker.process.pid} failed to start (exit code ${code}); stopping`);
      stopping = true;
      process.exitCode = 1;
      stopAll();
      if (alive().length === 0) process.exit(1);
      return;
    }
    log.error(`worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
    setTimeout(() => cluster.fork(), 1000);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping ${count} workers`);
    stopAll();
    if (alive().length === 0) process.exit(0);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < count; i++) cluster.fork();
}
