import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { StoreConfig } from '../src/storage/open-stores.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function backendsReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  const redis = new Redis(REDIS_URL, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await client.connect();
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
    redis.disconnect();
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A schema and a key prefix of the benchmark's own, removed by `cleanup`. */
export async function freshPostgresRedis() {
  const suffix = randomBytes(4).toString('hex');
  const schema = `cr_bench_${suffix}`;
  const prefix = `cr_bench_${suffix}:`;
  await admin(`CREATE SCHEMA ${schema}`);
  const databaseUrl = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const storeConfig: StoreConfig = { databaseUrl, redisUrl: REDIS_URL, redisKeyPrefix: prefix };
  return {
    storeConfig,
    env: { DATABASE_URL: databaseUrl, REDIS_URL, REDIS_KEY_PREFIX: prefix },
    cleanup: async () => {
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
