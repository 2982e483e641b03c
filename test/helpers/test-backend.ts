import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { StoreConfig } from '../../src/storage/open-stores.js';
import { freshPgSchema, freshRedisPrefix, redisUrl } from './backends.js';
import { tempDir } from './temp-dir.js';

/**
 * Which backend the black-box suites run on: `sqlite` (the embedded default) or
 * `postgres-redis` (TEST_BACKEND=postgres-redis; the test/http-on-postgres-redis/ entry points
 * set it). The same suites, unchanged, must pass on both.
 */
export function testBackendName(): 'sqlite' | 'postgres-redis' {
  return process.env.TEST_BACKEND === 'postgres-redis' ? 'postgres-redis' : 'sqlite';
}

export interface TestStores {
  storeConfig: StoreConfig;
  /** The same, as the environment a server process reads. */
  env: Record<string, string>;
  /** Runs before the backend's own clean-up (servers on a PostgreSQL schema close before it is dropped). */
  beforeCleanup(close: () => Promise<unknown>): void;
}

/**
 * A store of its own for one test: a temp SQLite file, or a fresh PostgreSQL schema + Redis
 * prefix (the entry points under test/http-on-postgres-redis/ have checked both servers answer).
 */
export async function freshTestStores(t: TestContext): Promise<TestStores> {
  if (testBackendName() === 'sqlite') {
    const databaseUrl = `sqlite:${join(tempDir(t), 'rates.db')}`;
    return { storeConfig: { databaseUrl }, env: { DATABASE_URL: databaseUrl }, beforeCleanup: (close) => t.after(close) };
  }
  const schema = await freshPgSchema(t);
  const redisKeyPrefix = freshRedisPrefix(t);
  return {
    storeConfig: { databaseUrl: schema.url, redisUrl: redisUrl(), redisKeyPrefix },
    env: { DATABASE_URL: schema.url, REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: redisKeyPrefix },
    beforeCleanup: schema.closeFirst,
  };
}
