import pino from 'pino';

/**
 * Structured JSON lines on stdout. Request logs carry method, URL, status and timing; the
 * Authorization header is never among the serialised fields, and redaction guards the paths a
 * future change might add.
 */
export function createLogger(level: string) {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
  });
}
