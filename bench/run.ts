import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey } from '../src/domain/api-keys.js';
import { DEFAULT_TRACKED, TrackedCurrencies } from '../src/domain/currencies.js';
import { runIngestion } from '../src/ingest/run-ingestion.js';
import { RatesView } from '../src/live/rates-view.js';
import { openStores, type StoreConfig } from '../src/storage/open-stores.js';
import { load, type LoadResult } from './load.js';
import { MAIN_JS, ROOT, rssMb, spawnAndWait, type Running } from './processes.js';
import { backendsReachable, freshPostgresRedis } from './scale-out-backends.js';
import { formatReport, type Row } from './report.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' } } });
const quick = values.quick ?? false;
const WARMUP = quick ? 0.5 : 2;
const WINDOW = quick ? 1.5 : 5;
const HISTORY = join(ROOT, '..', 'shared', 'data', 'eurofxref-hist.zip');
const work = mkdtempSync(join(tmpdir(), 'currency-rates-bench-'));
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);

interface Route {
  name: string;
  path: string | (() => string);
  auth: boolean;
}

function routes(dates: readonly string[]): Route[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const amount = () => `${1 + Math.floor(Math.random() * 1_000_000)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
  const targets = DEFAULT_TRACKED.filter((code) => code !== 'GBP').slice(0, 25).join(',');
  return [
    { name: 'rates/latest', path: '/api/v1/rates/latest', auth: true },
    { name: 'rates/latest?base=USD&symbols=5', path: '/api/v1/rates/latest?base=USD&symbols=EUR,GBP,JPY,CHF,CAD', auth: true },
    { name: 'rates/{date}, 1000 dates', path: () => `/api/v1/rates/${pick(dates)}?base=GBP`, auth: true },
    { name: 'convert, random amounts', path: () => `/api/v1/convert?from=USD&to=JPY&amount=${amount()}`, auth: true },
    { name: 'convert/bulk, 25 targets, random amounts', path: () => `/api/v1/convert/bulk?from=GBP&to=${targets}&amount=${amount()}`, auth: true },
    { name: 'currencies', path: '/api/v1/currencies', auth: true },
    { name: '401 (no key)', path: '/api/v1/rates/latest', auth: false },
    { name: '400 (bad parameters)', path: '/api/v1/convert?from=US&to=JPY&amount=abc', auth: true },
  ];
}

/** Creates a key with a quota large enough for the whole run. */
async function newKey(storeConfig: StoreConfig): Promise<{ key: string; id: number }> {
  const stores = await openStores(storeConfig);
  try {
    const key = generateApiKey();
    return { key, id: (await stores.keys.create('bench', hashApiKey(key), new Date())).id };
  } finally {
    await stores.close();
  }
}

async function storedCount(storeConfig: StoreConfig, keyId: number): Promise<number> {
  const stores = await openStores(storeConfig);
  try {
    return (await stores.quota.usage(keyId))?.used ?? 0;
  } finally {
    await stores.close();
  }
}

const counted = (result: LoadResult) => [...result.statuses].filter(([status]) => status !== 401 && status !== 429).reduce((sum, [, n]) => sum + n, 0);

interface Config {
  name: string;
  env: NodeJS.ProcessEnv;
  storeConfig: StoreConfig;
  routes: Route[];
}

async function measureConfig(config: Config, rows: Row[], baselineRps: number): Promise<{ start: number; exact: string }> {
  const { key } = await newKey(config.storeConfig);
  const server: Running = await spawnAndWait([MAIN_JS, 'serve'], config.env, join(work, `${config.name}.log`), '/health');
  log(`${config.name}: listening after ${server.startMs.toFixed(0)} ms`);
  try {
    for (const route of config.routes) {
      const result = await load({
        url: server.url,
        path: route.path,
        headers: route.auth ? { authorization: `Bearer ${key}` } : {},
        warmupSeconds: WARMUP,
        seconds: WINDOW,
      });
      const row: Row = { config: config.name, route: route.name, result, ratio: result.requestsPerSecond / baselineRps, rssMb: rssMb(server.child.pid!) };
      rows.push(row);
      log(`${config.name} ${route.name}: ${Math.round(result.requestsPerSecond)} req/s (${row.ratio.toFixed(2)} of baseline), p99 ${result.p99} ms, statuses ${JSON.stringify(Object.fromEntries(result.statuses))}`);
    }
    // Exactness: a fixed number of requests on a fresh key, every answer received, then the store asked.
    const fresh = await newKey(config.storeConfig);
    const exact = await load({ url: server.url, path: '/api/v1/rates/latest', headers: { authorization: `Bearer ${fresh.key}` }, warmupSeconds: 0, amount: quick ? 5_000 : 20_000 });
    const stored = await storedCount(config.storeConfig, fresh.id);
    const line = `${config.name}: ${counted(exact)} requests counted by the benchmark, ${stored} stored for the key${counted(exact) === stored ? ' (equal)' : ' (DIFFERENT)'}`;
    log(line);
    return { start: server.startMs, exact: line };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  log(`${quick ? 'quick' : 'full'} run; ${cpus().length} cores; node ${process.version}`);
  const sqliteUrl = `sqlite:${join(work, 'bench.db')}`;

  // Full-history ingestion into a fresh store, and the memory its snapshot takes.
  const stores = await openStores(sqliteUrl);
  let t = performance.now();
  const report = await runIngestion(stores.rates, { file: HISTORY });
  const ingestMs = performance.now() - t;
  log(`ingested ${report.rates} rates of ${report.days} days in ${ingestMs.toFixed(0)} ms`);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const view = new RatesView(stores.rates, new TrackedCurrencies(DEFAULT_TRACKED));
  t = performance.now();
  await view.refresh();
  const loadMs = performance.now() - t;
  gc?.();
  const snapshotMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  const dates = Array.from({ length: 1000 }, (_, i) => view.snapshot.datesNewestFirst[i * 6]!).filter(Boolean);
  const latestBody = await (async () => {
    const { latestRates } = await import('../src/domain/rate-queries.js');
    return JSON.stringify(latestRates(view.snapshot, new TrackedCurrencies(DEFAULT_TRACKED), {}));
  })();
  await stores.close();
  writeFileSync(join(work, 'latest.json'), latestBody);

  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    INGEST_ON_EMPTY: 'off',
    INGEST_SCHEDULE: 'off',
    QUOTA_LIMIT: '1000000000',
    LOG_LEVEL: 'info',
    WORKERS: '1',
  };
  delete baseEnv.REDIS_URL;

  const rows: Row[] = [];
  // The baseline runs beside the whole benchmark and is measured again right before each
  // configuration: on a shared machine the capacity drifts, and each ratio compares rows measured
  // within a minute of each other.
  const baseline = await spawnAndWait([new URL('./baseline-server.js', import.meta.url).pathname], { ...baseEnv, BASELINE_BODY_FILE: join(work, 'latest.json') }, join(work, 'baseline.log'), '/');
  const measureBaseline = async (before: string): Promise<number> => {
    const result = await load({ url: baseline.url, path: '/api/v1/rates/latest', warmupSeconds: WARMUP, seconds: WINDOW });
    rows.push({ config: `baseline (bare node:http), before ${before}`, route: 'same bytes as rates/latest', result, ratio: 1, rssMb: rssMb(baseline.child.pid!) });
    log(`baseline before ${before}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms`);
    return result.requestsPerSecond;
  };

  const all = routes(dates);
  const configs: Config[] = [
    { name: 'SQLite', env: { ...baseEnv, DATABASE_URL: sqliteUrl }, storeConfig: { databaseUrl: sqliteUrl }, routes: all },
  ];
  const reachable = await backendsReachable();
  let pg: Awaited<ReturnType<typeof freshPostgresRedis>> | undefined;
  if (reachable) {
    pg = await freshPostgresRedis();
    const pgStores = await openStores(pg.storeConfig);
    t = performance.now();
    await runIngestion(pgStores.rates, { file: HISTORY });
    log(`ingested the history into PostgreSQL in ${(performance.now() - t).toFixed(0)} ms`);
    await pgStores.close();
    configs.push({ name: 'PostgreSQL + Redis', env: { ...baseEnv, ...pg.env }, storeConfig: pg.storeConfig, routes: quick ? all.slice(0, 1) : all });
  } else {
    log('PostgreSQL or Redis not reachable: their rows are left out');
  }
  configs.push({ name: 'SQLite, WORKERS=2', env: { ...baseEnv, DATABASE_URL: sqliteUrl, WORKERS: '2' }, storeConfig: { databaseUrl: sqliteUrl }, routes: quick ? all.slice(0, 1) : [all[0]!, all[3]!, all[4]!] });

  const starts: string[] = [];
  const exactness: string[] = [];
  try {
    for (const config of configs) {
      const { start, exact } = await measureConfig(config, rows, await measureBaseline(config.name));
      starts.push(`${config.name}: ${start.toFixed(0)} ms`);
      exactness.push(exact);
    }
  } finally {
    await baseline.stop();
    await pg?.cleanup();
  }

  const markdown = formatReport({
    quick,
    rows,
    facts: [
      `Full-history ingestion (${report.days} days, ${report.rates} rates, from eurofxref-hist.zip, into SQLite): ${(ingestMs / 1000).toFixed(2)} s`,
      `Loading the full history into memory (the snapshot): ${loadMs.toFixed(0)} ms; heap taken by the snapshot: ${snapshotMb.toFixed(1)} MB${gc ? '' : ' (run with --expose-gc for an exact figure)'}`,
      `Server start with the full history loaded (spawn → first answer): ${starts.join('; ')}`,
      ...exactness.map((line) => `Quota exactness — ${line}`),
    ],
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load generator (autocannon, 50 connections) on the same machine`,
    seconds: (performance.now() - started) / 1000,
  });
  const out = values.out ?? join(ROOT, 'BENCHMARKS.md');
  writeFileSync(out, markdown);
  console.log(`\n${markdown}`);
  log(`written to ${out}`);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
