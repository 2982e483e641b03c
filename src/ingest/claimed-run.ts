import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../domain/quota.js';
import type { JobClaims } from '../storage/ports.js';

/** Long enough for any ingestion; a holder that dies leaves the slot to others after this. */
const LEASE_MS = 10 * 60_000;

/** This process's name as a claimer of scheduled runs: unique across a fleet and restarts. */
export function newHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

export interface ClaimedRunDeps {
  jobs: JobClaims;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Called after a run that landed, so this instance serves it at once. */
  onLanded: () => Promise<unknown>;
  /** Told about every run this instance made (not the slots another instance claimed): for metrics. */
  onRun?: (landed: boolean) => void;
}

/** What the warnings say of a run: that it failed, that it landed but is not served yet, or that it could not be coordinated. */
export interface RunWording {
  failed: (reason: string) => string;
  notLoaded: (reason: string) => string;
  uncoordinated: (reason: string) => string;
}

/**
 * One scheduled run across a fleet: whoever claims `slot` runs `ingest`, everyone else steps
 * aside. A failed ingestion is logged and leaves the stored data as it was; the slot is completed
 * either way. True when this caller ran it.
 */
export async function runClaimed(
  deps: ClaimedRunDeps,
  slot: string,
  holder: string,
  ingest: () => Promise<void>,
  wording: RunWording,
): Promise<boolean> {
  try {
    if (!(await deps.jobs.claim(slot, holder, deps.clock.now(), LEASE_MS))) return false;
    let landed = false;
    try {
      await ingest();
      landed = true;
    } catch (err) {
      deps.log.warn(wording.failed((err as Error).message));
    }
    if (landed) {
      try {
        await deps.onLanded();
      } catch (err) {
        // Stored all the same: the refresher loads it once the store answers again.
        deps.log.warn(wording.notLoaded((err as Error).message));
      }
    }
    deps.onRun?.(landed);
    await deps.jobs.complete(slot, holder, deps.clock.now());
    return true;
  } catch (err) {
    deps.log.warn(wording.uncoordinated((err as Error).message));
    return false;
  }
}
