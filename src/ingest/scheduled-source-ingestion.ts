import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../domain/quota.js';
import type { JobClaims } from '../storage/ports.js';
import { nextPublicationRun } from './publication-time.js';
import { summarise } from './run-ingestion.js';
import { runSourceIngestion, type SourceIngestionStores } from './run-source-ingestion.js';
import type { SourceAdapter } from './sources/source-adapter.js';

/** Long enough for any ingestion; a holder that dies leaves the slot to others after this. */
const LEASE_MS = 10 * 60_000;
/** How long after a bank's stated publication time its run starts: banks are sometimes late. */
export const SOURCE_RUN_DELAY_MINUTES = 30;

export interface ScheduledSourceDeps {
  stores: SourceIngestionStores;
  jobs: JobClaims;
  adapter: SourceAdapter;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Called after a run that landed, so this instance serves it at once. */
  onLanded: () => Promise<unknown>;
  /** Told about every run this instance made: for metrics. */
  onRun?: (landed: boolean) => void;
}

/**
 * One scheduled run of a source for its publication day `day`: whoever claims the slot
 * `ingest:ID:DAY` fetches the bank's latest publication, everyone else steps aside. True when
 * this caller ran it.
 */
export async function runClaimedSourceIngestion(deps: ScheduledSourceDeps, day: string, holder: string): Promise<boolean> {
  const slot = `ingest:${deps.adapter.id}:${day}`;
  try {
    if (!(await deps.jobs.claim(slot, holder, deps.clock.now(), LEASE_MS))) return false;
    let landed = false;
    try {
      deps.log.info(summarise(await runSourceIngestion(deps.stores, deps.adapter)));
      landed = true;
      await deps.onLanded();
    } catch (err) {
      deps.log.warn(`scheduled ingestion of ${deps.adapter.id} failed: ${(err as Error).message}; its stored values stay as they are`);
    }
    deps.onRun?.(landed);
    await deps.jobs.complete(slot, holder, deps.clock.now());
    return true;
  } catch (err) {
    deps.log.warn(`scheduled ingestion of ${deps.adapter.id} could not be coordinated: ${(err as Error).message}`);
    return false;
  }
}

/**
 * A source's daily ingestion, SOURCE_RUN_DELAY_MINUTES after its publication time in its own
 * zone, on its publication weekdays. Every instance wakes; the one that claims the slot runs it.
 */
export function scheduleSourceIngestion(deps: ScheduledSourceDeps): () => void {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const now = deps.clock.now();
    const next = nextPublicationRun(now, deps.adapter.schedule, SOURCE_RUN_DELAY_MINUTES);
    timer = setTimeout(() => {
      void runClaimedSourceIngestion(deps, next.day, holder).finally(arm);
    }, next.at - now);
    timer.unref();
  };
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
