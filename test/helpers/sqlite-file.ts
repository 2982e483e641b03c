import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { tempDir } from './temp-dir.js';

/** A SQLite file of the test's own, its stores open (closed when the test ends) and one key created in it. */
export async function sqliteFileWithKey(t: TestContext, fileName: string) {
  const path = join(tempDir(t), fileName);
  const stores = openSqliteStores(path);
  t.after(() => stores.close());
  const keyId = (await stores.keys.create(null, randomBytes(32).toString('hex'), new Date())).id;
  return { path, stores, keyId };
}
