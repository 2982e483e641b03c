import type { FastifyBaseLogger } from 'fastify';
import { loggableError, rootMessage } from '../loggable-error.js';
import type { BackendEvents, StoreUnavailableError } from '../storage/ports.js';

/**
 * Operations that run all the time (each request, each refresh, each readiness probe, the
 * connection itself): one that failed must succeed again before an outage is over. Any other
 * (a merge, a claim, a key created) that failed is over with the backend's next success, so a
 * daily job that failed does not keep an outage open until the next day.
 */
const CONTINUOUS = /(^|\.)(consume|version|ping)$|^connection$/;

interface Outage {
  since: number;
  /** The operations that failed since, and have not succeeded again. */
  failing: Set<string>;
}

/**
 * Logs each backend outage once as it begins (a warning with the real cause) and once as it ends
 * (with its length), however many calls fail in between: the log of an outage of a busy instance
 * stays two lines, and every 503 it answers is still on its access line.
 */
export class OutageLog implements BackendEvents {
  private readonly outages = new Map<string, Outage>();

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly now: () => number = Date.now,
  ) {}

  unavailable(err: StoreUnavailableError, operation: string): void {
    let outage = this.outages.get(err.backend);
    if (outage === undefined) {
      outage = { since: this.now(), failing: new Set() };
      this.outages.set(err.backend, outage);
      this.log.warn({ err: loggableError(err) }, `${err.backend} is unreachable: ${rootMessage(err)}`);
    }
    outage.failing.add(operation);
  }

  available(backend: string, operation: string): void {
    // Every request's success comes here: nothing more than this lookup while all is well.
    if (this.outages.size === 0) return;
    const outage = this.outages.get(backend);
    if (outage === undefined) return;
    for (const failed of outage.failing) {
      if (failed === operation || !CONTINUOUS.test(failed)) outage.failing.delete(failed);
    }
    if (outage.failing.size > 0) return;
    this.outages.delete(backend);
    const seconds = (this.now() - outage.since) / 1000;
    this.log.info(`${backend} is reachable again after ${seconds.toFixed(1)} s`);
  }

  warning(message: string): void {
    this.log.warn(message);
  }

  /** Whether `backend` is in an outage now. */
  isDown(backend: string): boolean {
    return this.outages.has(backend);
  }
}
