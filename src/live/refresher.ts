import type { FastifyBaseLogger } from 'fastify';
import { loggableError } from '../loggable-error.js';
import { StoreUnavailableError } from '../storage/ports.js';

/**
 * Runs `refresh` every `intervalMs`, one run at a time, logging failures without stopping. A
 * backend that cannot be reached is not logged here: the stores report it (OutageLog), once per
 * outage rather than once per run. The stop it returns resolves once a run under way has ended.
 */
export function startRefresher(
  refresh: () => Promise<unknown>,
  intervalMs: number,
  log: Pick<FastifyBaseLogger, 'warn'>,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = refresh()
      .then(
        () => undefined,
        (err: unknown) => {
          if (!(err instanceof StoreUnavailableError)) log.warn({ err: loggableError(err) }, 'refreshing rates and keys from the store failed');
        },
      )
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
