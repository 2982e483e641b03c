import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** migrations/<dialect>/NNN_name.sql at the package root, in version order. */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(PACKAGE_ROOT, 'migrations', dialect, '/');
  return readdirSync(dir)
    .filter((file) => /^\d+_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(dir + file, 'utf8'),
    }));
}
