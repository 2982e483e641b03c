import type { FastifyBaseLogger } from 'fastify';
import type { RatesStore } from '../storage/ports.js';
import { newHolder, runClaimed, type ClaimedRunDeps } from './claimed-run.js';
import { scheduleDaily } from './daily-schedule.js';
import { runIngestion, summarise } from './run-ingestion.js';

export interface ScheduledIngestionDeps extends ClaimedRunDeps {
  rates: RatesStore;
  url: string;
  minuteOfDay: number;
  log: FastifyBaseLogger;
}

/**
 * One scheduled run: whoever claims the day's slot ingests, everyone else steps aside. True when
 * this caller ran it.
 */
export async function runClaimedIngestion(deps: Omit<ScheduledIngestionDeps, 'minuteOfDay'>, holder: string): Promise<boolean> {
  const slot = `ingest:${new Date(deps.clock.now()).toISOString().slice(0, 10)}`;
  return runClaimed(deps, slot, holder, async () => deps.log.info(summarise(await runIngestion(deps.rates, { url: deps.url }))), {
    failed: (reason) => `scheduled ingestion from ${deps.url} failed: ${reason}; the stored rates stay as they are`,
    notLoaded: (reason) => `scheduled ingestion from ${deps.url} stored its rates, but this instance could not load them yet: ${reason}; it serves them once the store answers`,
    uncoordinated: (reason) => `scheduled ingestion could not be coordinated: ${reason}`,
  });
}

/**
 * The daily ingestion. Every instance wakes at the same minute; the one that claims the day's
 * slot runs it and the others step aside, so a fleet fetches the ECB once a day.
 */
export function scheduleIngestion(deps: ScheduledIngestionDeps): () => void {
  const holder = newHolder();
  return scheduleDaily(deps.minuteOfDay, async () => {
    await runClaimedIngestion(deps, holder);
  });
}
