import pino from 'pino';
import { loggableError } from './loggable-error.js';

/** The most a turn's lines hold before they go to the destination anyway (characters). */
const HELD_PER_TURN = 64 * 1024;
/** How long a line may wait in the buffer when traffic is too light to fill it. */
const FLUSH_EVERY_MS = 250;

/**
 * Structured JSON lines on stdout, gathered into 4 KiB synchronous writes; what waits is written
 * every 250 ms and before the process exits (`flushLogger`). Synchronous: no thread-pool round
 * trip per write, at the price that a reader that stops reading stdout stalls the server instead
 * of growing its memory. The periodic write is `periodicFlush`, not `flushSync`, which also fsyncs
 * and so blocks the event loop: a log line need not reach the disk.
 * Request logs carry method, URL, status and timing; the Authorization header is never among the
 * serialised fields, and redaction guards the paths a future change might add.
 */
export function createLogger(level: string, fd = 1) {
  const destination = pino.destination({ dest: fd, sync: true, minLength: 4096, periodicFlush: FLUSH_EVERY_MS });
  return pino(loggerOptions(level), new TurnLines(destination));
}

/**
 * The lines of one turn of the event loop, handed to the destination in one write at the end of
 * the turn, in the order they came: sonic-boom measures the UTF-8 length of all it holds on every
 * write, so the access lines of requests answered in the same turn pay for that once.
 */
class TurnLines {
  private pending = '';

  constructor(private readonly destination: ReturnType<typeof pino.destination>) {}

  write(line: string): void {
    if (this.pending === '') setImmediate(this.handOver);
    this.pending += line;
    // A turn that logs a great deal (none does on the request path) holds no more than this.
    if (this.pending.length >= HELD_PER_TURN) this.handOver();
  }

  private readonly handOver = (): void => {
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.destination.write(lines);
  };

  flush(cb: (err?: Error) => unknown): void {
    this.handOver();
    this.destination.flush(cb);
  }

  destroy(): void {
    this.handOver();
    this.destination.destroy();
  }
}

/** The logger's configuration, apart from where its lines go. */
export function loggerOptions(level: string): pino.LoggerOptions {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
    // Any `{ err }` logged anywhere: type, message, code and causes, never a stack or driver internals.
    serializers: { err: loggableError },
  };
}

/** Writes out what the destination still holds; for the last moments of a process. */
export function flushLogger(logger: pino.Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
