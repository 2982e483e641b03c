import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../domain/quota.js';
import type { JobClaims, RatesStore } from '../storage/ports.js';
import { scheduleDaily } from './daily-schedule.js';
import { runIngestion, summarise } from './run-ingestion.js';

/** Long enough for any ingestion; a holder that dies leaves the slot to others after this. */
const LEASE_MS = 10 * 60_000;

export interface ScheduledIngestionDeps {
  rates: RatesStore;
  jobs: JobClaims;
  url: string;
  minuteOfDay: number;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Called after a run that landed, so this instance serves it at once. */
  onLanded: () => Promise<unknown>;
  /** Told about every run this instance made (not the days another instance claimed): for metrics. */
  onRun?: (landed: boolean) => void;
}

/**
 * One scheduled run: whoever claims the day's slot ingests, everyone else steps aside. True when
 * this caller ran it.
 */
export async function runClaimedIngestion(deps: Omit<ScheduledIngestionDeps, 'minuteOfDay'>, holder: string): Promise<boolean> {
  const now = deps.clock.now();
  const slot = `ingest:${new Date(now).toISOString().slice(0, 10)}`;
  try {
    if (!(await deps.jobs.claim(slot, holder, now, LEASE_MS))) return false;
    let landed = false;
    try {
      deps.log.info(summarise(await runIngestion(deps.rates, { url: deps.url })));
      landed = true;
      await deps.onLanded();
    } catch (err) {
      deps.log.warn(`scheduled ingestion from ${deps.url} failed: ${(err as Error).message}; the stored rates stay as they are`);
    }
    deps.onRun?.(landed);
    await deps.jobs.complete(slot, holder, deps.clock.now());
    return true;
  } catch (err) {
    deps.log.warn(`scheduled ingestion could not be coordinated: ${(err as Error).message}`);
    return false;
  }
}

/**
 * The daily ingestion. Every instance wakes at the same minute; the one that claims the day's
 * slot runs it and the others step aside, so a fleet fetches the ECB once a day.
 */
export function scheduleIngestion(deps: ScheduledIngestionDeps): () => void {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  return scheduleDaily(deps.minuteOfDay, async () => {
    await runClaimedIngestion(deps, holder);
  });
}
