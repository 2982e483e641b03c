/** What of an error goes into a log line. */
export interface LoggableError {
  type: string;
  message: string;
  code?: string;
  cause?: LoggableError;
}

/** Already converted (an explicit call, then the logger's `err` serializer): kept as it is. */
function isLoggable(value: unknown): value is LoggableError {
  if (typeof value !== 'object' || value === null || value instanceof Error) return false;
  const { type, message } = value as Partial<LoggableError>;
  return typeof type === 'string' && typeof message === 'string';
}

/**
 * An error's type, message and code, and those of its causes: never its stack (frames and file
 * paths give an operator nothing to act on that the message does not, and map the code for anyone
 * who reads the logs) nor the other properties a driver attaches (a query's text, its parameters).
 * Converting what it returned again returns it unchanged, so a line logged as
 * `{ err: loggableError(err) }` through a logger whose serializer is loggableError keeps its message.
 */
export function loggableError(err: unknown, depth = 0): LoggableError {
  if (isLoggable(err)) return err;
  if (!(err instanceof Error)) return { type: typeof err, message: String(err) };
  const logged: LoggableError = { type: err.name, message: realMessage(err) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = String(code);
  if (err.cause !== undefined && depth < 3) logged.cause = loggableError(err.cause, depth + 1);
  return logged;
}

/**
 * The message of an error as an operator needs it: an AggregateError without one of its own (a
 * connection refused on every address of a host) says those of the errors it gathers.
 */
export function realMessage(err: Error): string {
  if (err.message !== '' || !(err instanceof AggregateError)) return err.message || err.name;
  const messages = [...new Set((err.errors as unknown[]).map((inner) => (inner instanceof Error ? realMessage(inner) : String(inner))))];
  return messages.join('; ') || err.name;
}

/** The deepest cause's message: what actually failed beneath the wrappers (e.g. "connect ECONNREFUSED 127.0.0.1:6379"). */
export function rootMessage(err: unknown, depth = 0): string {
  if (!(err instanceof Error)) return String(err);
  if (err.cause !== undefined && depth < 5) return rootMessage(err.cause, depth + 1);
  return realMessage(err);
}
