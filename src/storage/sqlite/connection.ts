import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../ports.js';

export type SqliteDb = Database.Database;

/** How long a statement waits for another connection's write lock before it fails. */
export const LOCK_WAIT_MS = 10_000;

/**
 * WAL lets readers (every server process) run beside the one writer; busy_timeout makes a
 * second process wait for the write lock instead of failing (`lockWaitMs: 0`: fail at once with
 * SQLITE_BUSY, for a caller that waits without blocking, as the quota store does).
 * synchronous=FULL syncs the WAL at every commit, so a counted request survives a power loss too;
 * quota counts are group-committed (see sqlite-quota-store.ts), which keeps that to one sync per
 * batch of requests.
 */
export function openSqlite(path: string, { lockWaitMs = LOCK_WAIT_MS }: { lockWaitMs?: number } = {}): SqliteDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma(`busy_timeout = ${lockWaitMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/;

/** Runs a request-path statement, turning I/O and lock failures into StoreUnavailableError. */
export function onSqlite<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw asUnavailable(err);
  }
}

/** An I/O or lock failure as StoreUnavailableError; any other error as it is. */
export function asUnavailable(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && UNAVAILABLE_CODES.test(code) ? new StoreUnavailableError('SQLite', { cause: err }) : err;
}

/** Another connection holds the write lock (SQLITE_BUSY and its variants): the statement did nothing. */
export function isLockBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
