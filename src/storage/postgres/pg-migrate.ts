import { loadMigrations } from '../migration-files.js';
import { pgCall } from './pg-errors.js';
import { longQuery, withTransaction, type PgPool } from './pg-pool.js';

/**
 * Key of the transaction-level advisory lock that serialises migrations: any instance starting
 * waits here for the others, then finds their work recorded. ("cr" "migr" in ASCII, arbitrary.)
 */
const MIGRATION_LOCK = 0x63_72_6d_69_67_72;

/**
 * Applies pending migrations in one transaction, so a failed migration leaves the schema as it
 * was, and several instances starting at once apply each migration exactly once. Tables go in
 * the first schema of the connection's search_path. Returns the names applied.
 */
export async function migratePostgres(pool: PgPool): Promise<string[]> {
  return pgCall(() =>
    withTransaction(
      pool,
      async (client) => {
        await client.query(longQuery('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]));
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
        const done = new Set(
          (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version),
        );
        const applied: string[] = [];
        for (const migration of loadMigrations('postgres')) {
          if (done.has(migration.version)) continue;
          // No parameters: sent as a simple query, so a file may hold many statements.
          await client.query(longQuery(migration.sql));
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            Date.now(),
          ]);
          applied.push(migration.name);
        }
        return applied;
      },
      { long: true },
    ),
  );
}
