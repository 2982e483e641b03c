import pino from 'pino';
import { loggableError } from './loggable-error.js';

/**
 * Structured JSON lines on stdout, written asynchronously: a request never waits for the log
 * write (sonic-boom buffers and flushes in the background; call `flush` before exiting). Request
 * logs carry method, URL, status and timing; the Authorization header is never among the
 * serialised fields, and redaction guards the paths a future change might add.
 */
export function createLogger(level: string) {
  return pino(
    {
      level,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
      // Any `{ err }` logged anywhere: type, message, code and causes, never a stack or driver internals.
      serializers: { err: loggableError },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}

/** Writes out what the asynchronous destination still holds; for the last moments of a process. */
export function flushLogger(logger: pino.Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
