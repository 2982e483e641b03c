/** What of an error goes into a log line. */
export interface LoggableError {
  type: string;
  message: string;
  code?: string;
  cause?: LoggableError;
}

/**
 * An error's type, message and code, and those of its causes: never its stack (frames and file
 * paths give an operator nothing to act on that the message does not, and map the code for anyone
 * who reads the logs) nor the other properties a driver attaches (a query's text, its parameters).
 */
export function loggableError(err: unknown, depth = 0): LoggableError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err) };
  const logged: LoggableError = { type: err.name, message: err.message };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = String(code);
  if (err.cause !== undefined && depth < 3) logged.cause = loggableError(err.cause, depth + 1);
  return logged;
}
