import { loadMigrations } from '../migration-files.js';
import type { SqliteDb } from './connection.js';

/**
 * Applies pending migrations inside one IMMEDIATE transaction, so two processes starting at once
 * serialise on the write lock and the second finds nothing left to do.
 */
export function migrateSqlite(db: SqliteDb): string[] {
  const applied: string[] = [];
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const done = new Set(
      db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
    );
    for (const migration of loadMigrations('sqlite')) {
      if (done.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
        .run(migration.version, migration.name, Date.now());
      applied.push(migration.name);
    }
  }).immediate();
  return applied;
}
