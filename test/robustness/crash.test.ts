import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import { sqliteConnection, statement } from '../../src/storage/sqlite/connection.js';
import { freshPgSchema, freshRedisPrefix, harnessClient, harnessQuery, redisUrl, requireBackend } from '../helpers/backends.js';
import { describeRun, MAIN_JS, mapLimit, parseIngestSummary, runCli, serviceEnv } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { historyCsvText, HISTORY_ZIP, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { parseDecimal } from '../helpers/oracle.js';
import { apiGet, pollUntil, spawnServer, withTimeout, type Answer } from '../helpers/server-process.js';
import { FIXTURES, tempDir } from '../helpers/test-server.js';
import { FC_SEED } from './fc-settings.js';
import { seededRandom } from '../helpers/seeded-random.js';

/**
 * Crash safety: SIGKILL at random moments must never leave half an ingestion in the
 * store nor lose a counted request — on SQLite, on PostgreSQL, and on PostgreSQL + Redis (the
 * server is killed here, not Redis, so counts held in Redis survive whatever its persistence).
 */

/** The data already in the store: it overlaps the history, and hist-corrected.csv contradicts it once. */
const EARLIER_FILES = ['hist-corrected.csv', 'legacy.csv'];

type Backend = 'sqlite' | 'postgres' | 'postgres+redis';

interface Prepared {
  env: NodeJS.ProcessEnv;
  storeConfig: StoreConfig;
  /** Every row of every table. */
  dump(): Promise<string>;
  /** day|currency → value as an exact rational. */
  rates(): Promise<Map<string, string>>;
  key: string;
  keyId: number;
  /** True once an ingestion's merge has begun writing (and has not necessarily committed). */
  writeStarted(): Promise<boolean>;
}

const exact = (rate: string) => {
  const { num, den } = parseDecimal(rate);
  return `${num}/${den}`;
};

/** A store of the backend holding EARLIER_FILES and one key. */
async function prepare(t: TestContext, backend: Backend): Promise<Prepared> {
  let storeConfig: StoreConfig;
  let env: NodeJS.ProcessEnv;
  let dump: () => Promise<string>;
  let rows: () => Promise<Record<string, unknown>[]>;
  let writeStarted: () => Promise<boolean>;
  if (backend === 'sqlite') {
    const path = join(tempDir(t, 'currency-rates-crash-'), 'rates.db');
    storeConfig = { databaseUrl: `sqlite:${path}` };
    env = serviceEnv(path);
    // The merge's transaction spills pages into the WAL long before it commits.
    writeStarted = async () => (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0;
    dump = async () => {
      // A killed writer may leave a WAL behind: the next opener (any CLI or server) recovers it.
      sqliteConnection(path).close();
      return dumpDatabase(path);
    };
    rows = async () => {
      const db = sqliteConnection(path, { readonly: true });
      try {
        return statement(db, "SELECT day, currency, value AS rate FROM source_rates WHERE source = 'ecb'").all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    };
  } else {
    const schema = await freshPgSchema(t);
    const redis: Record<string, string> = backend === 'postgres+redis' ? { REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: freshRedisPrefix(t) } : {};
    storeConfig = { databaseUrl: schema.url, ...(redis.REDIS_URL ? { redisUrl: redis.REDIS_URL, redisKeyPrefix: redis.REDIS_KEY_PREFIX! } : {}) };
    env = serviceEnv('unused', { DATABASE_URL: schema.url, ...redis });
    // One connection watches for the merge's lock: polled every 5 ms, a connection per poll would
    // load the very server being watched, and time out on a busy machine.
    let watcher: Promise<pg.Client> | undefined;
    t.after(async () => {
      if (watcher) await (await watcher).end();
    });
    writeStarted = async () => {
      watcher ??= harnessClient(schema.url);
      const { rows: locks } = await (await watcher).query(`SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = '${schema.schema}' AND c.relname = 'source_rates' AND l.mode = 'RowExclusiveLock' AND l.granted`);
      return locks.length > 0;
    };
    dump = async () => {
      const tables = await harnessQuery(schema.url, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name");
      const parts: string[] = [];
      for (const { table_name: table } of tables) {
        const all = await harnessQuery(schema.url, `SELECT * FROM "${String(table)}"`);
        parts.push(`${String(table)}: ${all.map((row) => JSON.stringify(row)).sort().join('\n')}`);
      }
      return parts.join('\n\n');
    };
    rows = () => harnessQuery(schema.url, "SELECT day, currency, value AS rate FROM source_rates WHERE source = 'ecb'");
  }
  const stores = await openStores(storeConfig);
  const key = generateApiKey();
  let keyId: number;
  try {
    keyId = (await stores.keys.create('crash', hashApiKey(key), new Date())).id;
    for (const file of EARLIER_FILES) await runIngestion(stores.rates, ecb, { file: FIXTURES + file });
  } finally {
    await stores.close();
  }
  const rates = async () => new Map((await rows()).map((row) => [`${String(row.day)}|${String(row.currency)}`, exact(String(row.rate))]));
  return { env, storeConfig, dump, rates, key, keyId, writeStarted };
}

/**
 * Spawns `ingest --file …` and SIGKILLs it after `moment` ms — or, for 'mid-merge', as soon as
 * its merge has begun writing — unless it ended first; resolves to how it ended.
 */
async function ingestKilledAt(t: TestContext, store: Prepared, file: string, moment: number | 'mid-merge') {
  const env = store.env;
  const child = spawn(process.execPath, [MAIN_JS, 'ingest', '--file', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const trigger =
    moment === 'mid-merge'
      ? pollUntil(async () => ((await store.writeStarted()) ? true : undefined), { timeoutMs: 30_000, intervalMs: 5, what: 'the merge to begin' })
      : sleep(moment);
  const outcome = await Promise.race([exited, trigger.then(() => undefined)]);
  if (outcome) return { ...outcome, stderr };
  child.kill('SIGKILL');
  return { ...(await withTimeout(exited, 10_000, 'a killed ingestion to exit')), stderr };
}

async function killIngestions(t: TestContext, backend: Backend): Promise<void> {
  const store = await prepare(t, backend);
  const before = await store.dump();
  const earlier = await store.rates();
  // What a complete run must leave: the earlier values, overwritten by every value of the file.
  const complete = new Map(earlier);
  for (const [date, day] of parseHistoryCsv(await historyCsvText())) {
    for (const [code, rate] of Object.entries(day)) complete.set(`${date}|${code}`, exact(rate));
  }
  const added = [...complete.keys()].filter((k) => !earlier.has(k)).length;
  const changed = [...earlier].filter(([k, v]) => complete.get(k) !== v).length;

  const next = seededRandom(FC_SEED + backend.length);
  // Two random moments (start-up, reading, parsing, merging: wherever they fall), and one while
  // the merge is writing, whatever the machine's speed.
  const moments: (number | 'mid-merge')[] = [[50, 700], [700, 1500]].map(([lo, hi]) => Math.round(lo! + next() * (hi! - lo!)));
  moments.push('mid-merge');
  let state: 'earlier' | 'complete' = 'earlier';
  for (const moment of moments) {
    const ms = moment === 'mid-merge' ? 'the start of the merge' : `${moment} ms`;
    const run = await ingestKilledAt(t, store, HISTORY_ZIP, moment);
    if (run.signal === null) {
      assert.equal(run.code, 0, `an ingestion that ended by itself succeeded: ${run.stderr}`);
      state = 'complete';
      t.diagnostic(`${backend}: the run finished before ${ms}`);
      continue;
    }
    if (state === 'earlier' && (await store.dump()) === before) {
      t.diagnostic(`${backend}: killed at ${ms}; the store holds exactly the earlier data`);
      continue;
    }
    // Killed between the commit and the exit: then everything landed, never a part.
    assert.deepEqual(await store.rates(), complete, `${backend}: killed at ${ms}, the store holds either the earlier data or all of the file`);
    state = 'complete';
    t.diagnostic(`${backend}: killed at ${ms}, after the commit`);
  }

  const rerun = await runCli(['ingest', '--file', HISTORY_ZIP], store.env, { timeoutMs: 60_000 });
  assert.equal(rerun.code, 0, describeRun(rerun));
  const summary = parseIngestSummary(rerun.stdout);
  assert.ok(summary, rerun.stdout);
  if (state === 'earlier') assert.deepEqual([summary.added, summary.changed], [added, changed], 'the rerun finds the store as it was before the kills');
  assert.deepEqual(await store.rates(), complete, 'after the rerun the store holds the earlier data overwritten by the whole file');
}

// The backends run concurrently: each has a store of its own, and it keeps the suite short.
describe('ingestions killed', { concurrency: true }, () => {
  test('when an ingestion of the full ECB history is SIGKILLed at random moments (SQLite), then the store holds exactly the earlier data, and a rerun completes', async (t) => {
    await killIngestions(t, 'sqlite');
  });

  test('when an ingestion of the full ECB history is SIGKILLed at random moments (PostgreSQL), then the store holds exactly the earlier data, and a rerun completes', async (t) => {
    if (!(await requireBackend('PostgreSQL', t))) return;
    await killIngestions(t, 'postgres');
  });
});

// ---------------------------------------------------------------------------------------------

const PATHS = [
  '/api/v1/rates/latest',
  '/api/v1/convert?from=USD&to=JPY&amount=12.5',
  '/api/v1/rates/2026-04-11', // 404: counted
  '/api/v1/convert?from=USD&to=JPY&amount=0', // 400: counted
  '/api/v1/convert/bulk?from=GBP&amount=3&to=USD,CHF',
  '/api/v1/currencies',
];

const usedIn = (answer: Answer) => 1000 - Number(answer.headers.get('x-ratelimit-remaining'));

async function usage(store: Prepared): Promise<number> {
  const stores = await openStores(store.storeConfig);
  try {
    return (await stores.quota.usage(store.keyId))?.used ?? 0;
  } finally {
    await stores.close();
  }
}

async function killServers(t: TestContext, backend: Backend): Promise<void> {
  const store = await prepare(t, backend);

  // N answered requests, then SIGKILL at once: after a restart the count is N.
  const first = await spawnServer(t, store.env);
  const n = 40;
  const answers = await mapLimit(Array.from({ length: n }, (_, i) => PATHS[i % PATHS.length]!), 8, (path) => apiGet(first.url, path, store.key));
  for (const answer of answers) assert.ok([200, 400, 404].includes(answer.status), answer.text);
  assert.equal(Math.max(...answers.map(usedIn)), n, 'the answers counted 1..N');
  assert.equal((await first.stop('SIGKILL')).signal, 'SIGKILL');
  assert.equal(await usage(store), n, `${backend}: the count at rest after the kill`);
  const second = await spawnServer(t, store.env);
  const after = await apiGet(second.url, '/api/v1/rates/latest', store.key);
  assert.equal(usedIn(after), n + 1, `${backend}: the restarted server continues from N (answer ${after.status} ${after.text}; its log: ${second.stdout().slice(-2000)} ${second.stderr().slice(-2000)})`);

  // Killed while requests are in flight: every answered count survives (none is lost), and
  // nothing is counted that was never sent.
  const sent = 300;
  const answered: Answer[] = [];
  let killed = false;
  const inFlight = mapLimit(Array.from({ length: sent }, (_, i) => PATHS[i % PATHS.length]!), 32, async (path) => {
    if (killed) return;
    const answer = await apiGet(second.url, path, store.key, 5000).catch(() => undefined);
    if (answer && answer.headers.get('x-ratelimit-remaining') !== null) answered.push(answer);
    if (answered.length >= 100 && !killed) {
      killed = true;
      second.child.kill('SIGKILL');
    }
  });
  await withTimeout(inFlight, 30_000, 'the requests around the kill');
  await withTimeout(second.exited, 10_000, 'the killed server to exit');
  const highest = Math.max(...answered.map(usedIn));
  const atRest = await usage(store);
  t.diagnostic(`${backend}: ${answered.length} answered before the kill, highest count answered ${highest}, count at rest ${atRest}`);
  assert.ok(atRest >= highest, `${backend}: no answered request is lost (${atRest} < ${highest})`);
  assert.ok(atRest <= n + 1 + sent, `${backend}: nothing counted that was not sent`);
}

describe('servers killed', { concurrency: true }, () => {
  test('when a server is SIGKILLed after N counted requests and again with requests in flight (SQLite), then no answered count is lost', async (t) => {
    await killServers(t, 'sqlite');
  });

  test('when a server is SIGKILLed after N counted requests and again with requests in flight (PostgreSQL), then no answered count is lost', async (t) => {
    if (!(await requireBackend('PostgreSQL', t))) return;
    await killServers(t, 'postgres');
  });

  test('when a server is SIGKILLed after N counted requests and again with requests in flight (PostgreSQL + Redis), then no answered count is lost', async (t) => {
    if (!(await requireBackend('PostgreSQL', t)) || !(await requireBackend('Redis', t))) return;
    await killServers(t, 'postgres+redis');
  });
});
