import { randomBytes } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The servers the PostgreSQL and Redis adapter tests run against. When one is unreachable its
 * tests are skipped with a message saying so, unless CI=true, where that is a failure: a CI run
 * must never go green by skipping the scale-out adapters.
 */
export type Backend = 'PostgreSQL' | 'Redis';

export function postgresUrl(): string {
  return process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
}

export function redisUrl(): string {
  return process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
}

/** The URL without its password, for messages. */
function shown(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/**
 * How long the harness's own connections (a probe, a schema made or dropped, a test reading its
 * store) wait to be accepted. With four files at once on two cores, PostgreSQL has taken over 2 s
 * to accept one: a test's subject may time out, never its setup or cleanup.
 */
const HARNESS_CONNECT_MS = 15_000;

/** A connection of the harness's own to `url`, connected (see HARNESS_CONNECT_MS); the caller ends it. */
export async function harnessClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: HARNESS_CONNECT_MS });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** `sql` run on a harness connection of its own to `url`: its rows. */
export async function harnessQuery(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = await harnessClient(url);
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

async function probePostgres(url: string): Promise<void> {
  await harnessQuery(url, 'SELECT 1');
}

async function probeRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The connect promise only says "Connection is closed."; the error event says why.
  let cause: Error | undefined;
  redis.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw cause ?? err;
  } finally {
    redis.disconnect();
  }
}

const probes = new Map<Backend, Promise<string | undefined>>();

/** Undefined when the backend answers, else why not. One probe per backend and process. */
function unreachable(backend: Backend): Promise<string | undefined> {
  let probe = probes.get(backend);
  if (!probe) {
    const url = backend === 'PostgreSQL' ? postgresUrl() : redisUrl();
    probe = (backend === 'PostgreSQL' ? probePostgres(url) : probeRedis(url)).then(
      () => undefined,
      (err: unknown) => `${backend} not reachable at ${shown(url)} (${err instanceof Error ? err.message : String(err)})`,
    );
    probes.set(backend, probe);
  }
  return probe;
}

const isCi = () => process.env.CI === 'true';
const skipMessage = (reason: string) => `${reason}: skipped; set CI=true to make this a failure`;
const failMessage = (backend: Backend, reason: string) =>
  `${reason}; CI=true requires it (${backend === 'PostgreSQL' ? 'TEST_DATABASE_URL' : 'TEST_REDIS_URL'} names the server)`;

/**
 * Describe level (at module top level: `describe(name, { skip: await requireBackend('Redis') }, …)`):
 * resolves to false when the backend answers, else to the skip message; under CI=true it also
 * declares a failing test, so the run goes red.
 */
export async function requireBackend(backend: Backend): Promise<string | false>;
/**
 * Test level: true when the backend answers; else skips the test (false), or under CI=true fails it.
 */
export async function requireBackend(backend: Backend, t: TestContext): Promise<boolean>;
export async function requireBackend(backend: Backend, t?: TestContext): Promise<string | false | boolean> {
  const reason = await unreachable(backend);
  if (t) {
    if (reason === undefined) return true;
    if (isCi()) throw new Error(failMessage(backend, reason));
    t.skip(skipMessage(reason));
    return false;
  }
  if (reason === undefined) return false;
  if (isCi()) {
    test(`${backend} is reachable`, () => {
      throw new Error(failMessage(backend, reason));
    });
    return `${reason} (reported as a failure above)`;
  }
  return skipMessage(reason);
}

export const randomSuffix = () => randomBytes(6).toString('hex');

/**
 * A schema of its own for one test, dropped with everything in it when the test ends. The URL
 * selects it through the startup parameter `options` (libpq's `-c search_path=…`), which pg
 * sends to the server: unqualified names resolve, and tables are created, in that schema.
 * Whatever is passed to `closeFirst` (pools on the schema) is closed before the schema is dropped.
 */
export async function freshPgSchema(
  t: TestContext,
): Promise<{ schema: string; url: string; closeFirst(close: () => Promise<unknown>): void }> {
  const schema = `cr_test_${randomSuffix()}`;
  const closers: (() => Promise<unknown>)[] = [];
  await adminQuery(`CREATE SCHEMA ${schema}`);
  t.after(async () => {
    await Promise.allSettled(closers.map((close) => close()));
    await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
  return { schema, url: withSearchPath(postgresUrl(), schema), closeFirst: (close) => closers.push(close) };
}

export function withSearchPath(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function adminQuery(sql: string): Promise<void> {
  await harnessQuery(postgresUrl(), sql);
}

/** A key prefix of its own for one test; every key under it is deleted when the test ends. */
export function freshRedisPrefix(t: TestContext): string {
  const prefix = `cr_test_${randomSuffix()}:`;
  t.after(() => deleteRedisKeys(prefix));
  return prefix;
}

export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
