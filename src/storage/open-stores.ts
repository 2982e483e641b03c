import { resolve } from 'node:path';
import type { OpenedStores } from './ports.js';
import { openSqliteStores } from './sqlite/open-sqlite-stores.js';

/** Opens the adapters named by DATABASE_URL, running pending migrations first. */
export async function openStores(databaseUrl: string): Promise<OpenedStores> {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    return openSqliteStores(path === ':memory:' ? path : resolve(path));
  }
  throw new Error(`DATABASE_URL: unsupported scheme in "${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}" (expected sqlite:PATH)`);
}
