import { sqliteConnection, statement } from '../../src/storage/sqlite/connection.js';

/**
 * Every row of every table of a SQLite file, as one string (tables by name, rows sorted), read
 * through a read-only connection (opened and used as the service's are: connection.ts). Knows no
 * table of the schema: two dumps are equal exactly when nothing was written in between, whatever
 * the schema holds.
 */
export function dumpDatabase(path: string): string {
  const db = sqliteConnection(path, { readonly: true, fileMustExist: true });
  try {
    const tables = statement(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const parts = tables.map((table) => {
      const rows = statement(db, `SELECT * FROM "${table.replaceAll('"', '""')}"`).all().map((row) => JSON.stringify(row));
      return `${table}: ${rows.sort().join('\n')}`;
    });
    return parts.join('\n\n');
  } finally {
    db.close();
  }
}

