import { test } from 'node:test';
import { requireBackend } from './backends.js';

/**
 * Runs a black-box suite against PostgreSQL + Redis: sets TEST_BACKEND before the suite is
 * loaded (each test file runs in its own process), or, when a server is missing, skips with a
 * message — and fails under CI=true (requireBackend declares the failing test).
 */
export async function onPostgresAndRedis(load: () => Promise<unknown>): Promise<void> {
  const missing = (await requireBackend('PostgreSQL')) || (await requireBackend('Redis'));
  if (missing) {
    test('the HTTP suite on PostgreSQL + Redis', { skip: missing }, () => {});
    return;
  }
  process.env.TEST_BACKEND = 'postgres-redis';
  await load();
}
