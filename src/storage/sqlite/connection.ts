import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../ports.js';

export type SqliteDb = Database.Database;

/**
 * WAL lets readers (every server process) run beside the one writer; busy_timeout makes a
 * second process wait for the write lock instead of failing. synchronous=FULL syncs the WAL at
 * every commit, so a counted request survives a power loss too; quota counts are group-committed
 * (see sqlite-quota-store.ts), which keeps that to one sync per batch of requests.
 */
export function openSqlite(path: string): SqliteDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
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
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) throw new StoreUnavailableError('SQLite', { cause: err });
    throw err;
  }
}
