import type { FastifyBaseLogger } from 'fastify';
import { newHolder, runClaimed, type ClaimedRunDeps } from './claimed-run.js';
import { nextPublicationRun } from './publication-time.js';
import { summarise } from './run-ingestion.js';
import { runSourceIngestion, runSourceRangeIngestion, type SourceIngestionStores } from './run-source-ingestion.js';
import type { DayRange, SourceAdapter } from './sources/source-adapter.js';

/** How long after a bank's stated publication time its run starts: banks are sometimes late. */
export const SOURCE_RUN_DELAY_MINUTES = 30;
/** How far back a run fetches days it finds missing (a month of outages at the most). */
export const BACK_FILL_DAYS = 31;

export interface ScheduledSourceDeps extends ClaimedRunDeps {
  stores: SourceIngestionStores;
  adapter: SourceAdapter;
  log: FastifyBaseLogger;
}

/**
 * One scheduled run of a source for its publication day `day`: whoever claims the slot
 * `ingest:ID:DAY` fetches the bank's latest publication, and the days missed since the newest
 * stored one; everyone else steps aside. True when this caller ran it.
 */
export async function runClaimedSourceIngestion(deps: ScheduledSourceDeps, day: string, holder: string): Promise<boolean> {
  const { id } = deps.adapter;
  const ingest = async () => {
    const before = await lastStoredDay(deps);
    const report = await runSourceIngestion(deps.stores, deps.adapter);
    deps.log.info(summarise(report));
    await backFill(deps, missedDays(before, report.lastDate));
  };
  return runClaimed(deps, `ingest:${id}:${day}`, holder, ingest, {
    failed: (reason) => `scheduled ingestion of ${id} failed: ${reason}; its stored values stay as they are`,
    notLoaded: (reason) => `scheduled ingestion of ${id} stored its values, but this instance could not load them yet: ${reason}; it serves them once the store answers`,
    uncoordinated: (reason) => `scheduled ingestion of ${id} could not be coordinated: ${reason}`,
  });
}

/** The newest day stored of the source, or null when none is. */
async function lastStoredDay(deps: ScheduledSourceDeps): Promise<string | null> {
  const { sources } = await deps.stores.sourceRates.summary();
  return sources.find((summary) => summary.source === deps.adapter.id)?.lastDay ?? null;
}

const dayAfter = (day: string, days = 1) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The days between the newest stored before a run and the newest of the publication it fetched,
 * when there are any (a run missed while every instance was down, or a bank later than the run):
 * at most BACK_FILL_DAYS, the latest of them. Nothing before the first ingestion, which is by hand.
 * Measured from the newest fetched day, not the first: NBP's latest table B is days older than
 * its table A, and the table A days between them may be the missing ones.
 */
export function missedDays(lastStored: string | null, fetchedThrough: string): DayRange | undefined {
  if (lastStored === null) return undefined;
  const from = dayAfter(lastStored);
  const to = dayAfter(fetchedThrough, -1);
  if (from > to) return undefined;
  const earliest = dayAfter(to, 1 - BACK_FILL_DAYS);
  return { from: from < earliest ? earliest : from, to };
}

/**
 * Fetches the missed days by the bank's range URLs; days it published none on (a weekend, a
 * holiday) are no error. Its failure is only logged: the latest publication has landed either way.
 */
async function backFill(deps: ScheduledSourceDeps, missed: DayRange | undefined): Promise<void> {
  if (missed === undefined) return;
  try {
    const report = await runSourceRangeIngestion(deps.stores, deps.adapter, missed);
    deps.log.info(`back-filling ${deps.adapter.id}: ${report ? summarise(report) : `nothing published from ${missed.from} to ${missed.to}`}`);
  } catch (err) {
    deps.log.warn(`back-filling ${deps.adapter.id} from ${missed.from} to ${missed.to} failed: ${(err as Error).message}; fetch it by hand with "currency-rates ingest --source ${deps.adapter.id} --url …"`);
  }
}

/**
 * A source's daily ingestion, SOURCE_RUN_DELAY_MINUTES after its publication time in its own
 * zone, on its publication weekdays. Every instance wakes; the one that claims the slot runs it.
 */
export function scheduleSourceIngestion(deps: ScheduledSourceDeps): () => void {
  const holder = newHolder();
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
