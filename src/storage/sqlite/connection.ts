import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/**
 * WAL lets readers (every server process) run beside the one writer; busy_timeout makes a
 * second process wait for the write lock instead of failing. synchronous=NORMAL in WAL mode keeps
 * every commit across a process crash (the WAL is written before commit returns); only a power
 * loss can drop the last commits.
 */
export function openSqlite(path: string): SqliteDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}
