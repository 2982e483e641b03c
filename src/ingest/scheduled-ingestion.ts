import type { FastifyBaseLogger } from 'fastify';
import type { RatesStore } from '../storage/ports.js';
import { newHolder, runClaimed, type ClaimedRunDeps } from './claimed-run.js';
import { nextPublicationRun } from './publication-time.js';
import { runIngestion, runRangeIngestion, summarise } from './run-ingestion.js';
import { daysAfter, isoDay } from './sources/day-range.js';
import type { DayRange, PublicationSchedule, SourceAdapter } from './sources/source-adapter.js';

/** How long after a source's stated publication time its run starts: banks are sometimes late. */
export const SOURCE_RUN_DELAY_MINUTES = 30;
/** How far back a run fetches days it finds missing (a month of outages at the most). */
export const BACK_FILL_DAYS = 31;

export interface ScheduledIngestionDeps extends ClaimedRunDeps {
  rates: RatesStore;
  adapter: SourceAdapter;
  log: FastifyBaseLogger;
}

/**
 * One scheduled run of a source for its publication day `day`: whoever claims the slot
 * `ingest:ID:DAY` fetches the source's latest publication, and the days missed since the newest
 * stored one; everyone else steps aside. True when this caller ran it.
 */
export async function runClaimedIngestion(deps: ScheduledIngestionDeps, day: string, holder: string): Promise<boolean> {
  const { id } = deps.adapter;
  const ingest = async () => {
    const before = await deps.rates.lastDay(id);
    const report = await runIngestion(deps.rates, deps.adapter, undefined, isoDay(deps.clock.now()));
    deps.log.info(summarise(report));
    await backFill(deps, missedDays(before, report.lastDate));
  };
  return runClaimed(deps, `ingest:${id}:${day}`, holder, ingest, {
    failed: (reason) => `scheduled ingestion of ${id} failed: ${reason}; its stored values stay as they are`,
    notLoaded: (reason) => `scheduled ingestion of ${id} stored its values, but this instance could not load them yet: ${reason}; it serves them once the store answers`,
    uncoordinated: (reason) => `scheduled ingestion of ${id} could not be coordinated: ${reason}`,
  });
}

/**
 * The days between the newest stored before a run and the newest of the publication it fetched,
 * when there are any (a run missed while every instance was down, or a source later than the run):
 * at most BACK_FILL_DAYS, the latest of them. Nothing before the first ingestion, which is by hand
 * (or INGEST_ON_EMPTY). Measured from the newest fetched day, not the first: NBP's latest table B
 * is days older than its table A, and the table A days between them may be the missing ones.
 */
export function missedDays(lastStored: string | null, fetchedThrough: string): DayRange | undefined {
  if (lastStored === null) return undefined;
  const from = daysAfter(lastStored, 1);
  const to = daysAfter(fetchedThrough, -1);
  if (from > to) return undefined;
  const earliest = daysAfter(to, 1 - BACK_FILL_DAYS);
  return { from: from < earliest ? earliest : from, to };
}

/**
 * Fetches the missed days by the source's range URLs; days it published none on (a weekend, a
 * holiday) are no error. Its failure is only logged: the latest publication has landed either way.
 */
async function backFill(deps: ScheduledIngestionDeps, missed: DayRange | undefined): Promise<void> {
  if (missed === undefined) return;
  const { id } = deps.adapter;
  try {
    const report = await runRangeIngestion(deps.rates, deps.adapter, missed, isoDay(deps.clock.now()));
    deps.log.info(`back-filling ${id}: ${report ? summarise(report) : `nothing published from ${missed.from} to ${missed.to}`}`);
  } catch (err) {
    deps.log.warn(`back-filling ${id} from ${missed.from} to ${missed.to} failed: ${(err as Error).message}; fetch it by hand with "currency-rates ingest --source ${id} --url …"`);
  }
}

/**
 * When a source's daily run starts: SOURCE_RUN_DELAY_MINUTES after its publication time in its own
 * zone, or at `utcMinute` (INGEST_SCHEDULE=HH:MM) in UTC; on its publication weekdays either way.
 */
export function runSchedule(adapter: SourceAdapter, utcMinute?: number): { schedule: PublicationSchedule; delayMinutes: number } {
  if (utcMinute === undefined) return { schedule: adapter.schedule, delayMinutes: SOURCE_RUN_DELAY_MINUTES };
  const clock = `${String(Math.floor(utcMinute / 60)).padStart(2, '0')}:${String(utcMinute % 60).padStart(2, '0')}`;
  return { schedule: { ...adapter.schedule, localTime: clock, timeZone: 'UTC' }, delayMinutes: 0 };
}

/**
 * A source's daily ingestion at the time runSchedule gives. Every instance wakes; the one that
 * claims the slot runs it, so a fleet fetches each source once a day.
 */
export function scheduleIngestion(deps: ScheduledIngestionDeps, utcMinute?: number): () => void {
  const holder = newHolder();
  const { schedule, delayMinutes } = runSchedule(deps.adapter, utcMinute);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const now = deps.clock.now();
    const next = nextPublicationRun(now, schedule, delayMinutes);
    timer = setTimeout(() => {
      void runClaimedIngestion(deps, next.day, holder).finally(arm);
    }, next.at - now);
    timer.unref();
  };
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
