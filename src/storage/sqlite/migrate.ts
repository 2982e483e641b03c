import { loadMigrations } from '../migration-files.js';
import { statement, type SqliteDb } from './connection.js';

/**
 * Applies pending migrations inside one IMMEDIATE transaction, so two processes starting at once
 * serialise on the write lock and the second finds nothing left to do.
 */
export function migrateSqlite(db: SqliteDb): string[] {
  const applied: string[] = [];
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const done = new Set(statement(db, 'SELECT version FROM schema_migrations').pluck().all() as number[]);
    const record = statement(db, 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of loadMigrations('sqlite')) {
      if (done.has(migration.version)) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
      applied.push(migration.name);
    }
  }).immediate();
  return applied;
}
