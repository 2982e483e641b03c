import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../ports.js';

export type SqliteDb = Database.Database;
export type SqliteStatement = Database.Statement;

/** How long a statement waits for another connection's write lock before it fails. */
export const LOCK_WAIT_MS = 10_000;

/**
 * Every better-sqlite3 connection and statement this process makes is kept reachable until it
 * exits. better-sqlite3 12 wraps both in node::ObjectWrap, whose destructor, in an addon built
 * against Node 24.19's headers or later, asserts that a JavaScript context is entered; the garbage
 * collector runs with none entered when a process goes quiet, so collecting one of them aborts
 * the process (nodejs/node#65446). better-sqlite3 13 is free of this but needs Node 22, and the
 * package supports Node 20. Each store prepares its statements once, in its constructor, so this
 * holds a few dozen objects per connection opened. CI runs the suite on Node 24 too (.ci/node24).
 */
const held = new Set<object>();

/** `object` (a better-sqlite3 connection or statement), kept until the process exits (see `held`). */
function keptUntilExit<T extends object>(object: T): T {
  held.add(object);
  return object;
}

/** Whether `object` is kept until the process exits (for the test that every statement made is). */
export function isKeptUntilExit(object: object): boolean {
  return held.has(object);
}

/** The one way a connection is opened here (the tests' own too): kept until the process exits. */
export function sqliteConnection(path: string, options?: Database.Options): SqliteDb {
  return keptUntilExit(new Database(path, options));
}

/** The one way a statement is prepared here: once per store, and kept until the process exits. */
export function statement(db: SqliteDb, sql: string): SqliteStatement {
  return keptUntilExit(db.prepare(sql));
}

/**
 * WAL lets readers (every server process) run beside the one writer; busy_timeout makes a
 * second process wait for the write lock instead of failing (`lockWaitMs: 0`: fail at once with
 * SQLITE_BUSY, for a caller that waits without blocking, as the quota store does).
 * synchronous=FULL syncs the WAL at every commit, so a counted request survives a power loss too;
 * quota counts are group-committed (see sqlite-quota-store.ts), which keeps that to one sync per
 * batch of requests.
 */
export function openSqlite(path: string, { lockWaitMs = LOCK_WAIT_MS }: { lockWaitMs?: number } = {}): SqliteDb {
  if (path !== ':memory:' && path !== '') createPrivately(path);
  const db = sqliteConnection(path);
  // exec, not pragma(): exec makes no statement object (see `held`).
  db.exec(`PRAGMA busy_timeout = ${lockWaitMs}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON`);
  return db;
}

/** Folders the service creates for its database: the owner's alone (DECISIONS §11). */
const FOLDER_MODE = 0o700;
/** The database file; SQLite gives its -wal and -shm the database file's mode. */
const FILE_MODE = 0o600;

/**
 * Creates the folders up to `path` and the empty database file, when missing, with the modes
 * above: chmod after creation, so the umask the service runs under cannot widen them. What
 * already exists keeps the mode its owner gave it.
 */
function createPrivately(path: string): void {
  const folder = dirname(path);
  const first = mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  if (first !== undefined) {
    // mkdirSync returns the first folder it created; it and every one below it on the way are new.
    let current = first;
    chmodSync(current, FOLDER_MODE);
    for (const part of relative(first, folder).split(sep).filter((segment) => segment !== '')) {
      current = join(current, part);
      chmodSync(current, FOLDER_MODE);
    }
  }
  let fd: number;
  try {
    fd = openSync(path, 'wx', FILE_MODE);
  } catch {
    // It exists, or cannot be created: SQLite opens it, or reports why it cannot, as before.
    return;
  }
  try {
    fchmodSync(fd, FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/;

/** Runs a request-path statement, turning I/O and lock failures into StoreUnavailableError. */
export function withStoreErrors<T>(work: () => T): T {
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
