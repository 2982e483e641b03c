import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey } from '../src/domain/api-keys.js';
import { DEFAULT_TRACKED, TrackedCurrencies } from '../src/domain/currencies.js';
import { ratesBetween } from '../src/domain/range-queries.js';
import { latestRates } from '../src/domain/rate-queries.js';
import { rateRangeJson } from '../src/http/endpoints/rate-range.js';
import { IngestFormatError } from '../src/ingest/parsed-day.js';
import { runIngestion } from '../src/ingest/run-ingestion.js';
import { ecb } from '../src/ingest/sources/ecb.js';
import { sourceAdapter, SOURCE_IDS } from '../src/ingest/sources/registry.js';
import { RatesView } from '../src/live/rates-view.js';
import { openStores, type StoreConfig } from '../src/storage/open-stores.js';
import { diskSyncLatency } from './disk-sync.js';
import { historyLines, measureHistory, YEAR_PATH, type HistoryFigures } from './history-load.js';
import { PARSE_ROUNDS, PARSES, parseCosts, rawAnswer, type ParseCost } from './generator-parse.js';
import { combine, load, summarise, type CountedResult, type LoadResult, type LoadSpec } from './load.js';
import { peakRssMb, ROOT, rssMb, SERVE, spawnAndWait, type Running } from './processes.js';
import { backendsReachable, freshPostgresRedis } from './scale-out-backends.js';
import { cpuText, formatReport, generatorCpuText, ratioOf, roundRange, type Row } from './report.js';
import { PEAK_RSS_MB, peakRssLine, TARGETS, targetLines, type Exactness, type RouteTarget } from './targets.js';
import { wrkInstalled, wrkLoad } from './wrk-load.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, write: { type: 'boolean' }, out: { type: 'string' }, generator: { type: 'string' } } });
const quick = values.quick ?? false;
/** Before each route; the first route of a server gets more, so its code is compiled before anything is measured. */
const WARMUP = quick ? 1 : 2;
const FIRST_WARMUP = quick ? 2 : 5;
/** Each route is measured in ROUNDS pairs of windows: the baseline, then the service, alternately. */
const ROUNDS = quick ? 1 : 3;
/** The routes the targets judge get more: one round's ratio varies widely on a shared machine. */
const JUDGED_ROUNDS = quick ? 1 : 8;
// Both generators count their durations in whole seconds.
const WINDOW = 1;
/** Paths drawn, once per route, for a route whose paths vary: enough that random amounts seldom repeat. */
const VARIED_PATHS = 40_000;
/** A load generator for the timed windows, and how the report describes its way of sending and timing. */
interface Generator {
  load: (spec: LoadSpec) => Promise<LoadResult>;
  /** As the report's machine line names it. */
  named: string;
  /** What the method says of its requests and its latencies. */
  method: string;
}

/**
 * What sends the timed windows: wrk where it is installed, else autocannon, which parses every
 * answer in JavaScript on the server's cores and so can run out before the server does. The
 * exactness check is always autocannon's: it sends a fixed number and reads every status.
 */
const GENERATORS: Record<string, Generator> = {
  wrk: {
    load: wrkLoad,
    named: 'wrk, one thread',
    method: `Requests are formatted before each window (varied paths: ${VARIED_PATHS.toLocaleString('en')} drawn per route, sent in turn). Latency percentiles are over every answer of the service's windows, as wrk measured them before its correction for coordinated omission (the load is closed-loop: each connection sends its next request when answered, and the targets are for that).`,
  },
  autocannon: {
    load,
    named: 'autocannon',
    method: `Requests are encoded before each window (varied paths: ${VARIED_PATHS.toLocaleString('en')} drawn per route, dealt out among the connections). Latency percentiles are over every request sent in the service's windows (a connection's first request, sent as it connects, is not timed).`,
  },
};
const generator = ((name: string): Generator => {
  const chosen = GENERATORS[name];
  if (!chosen) throw new Error(`--generator is ${Object.keys(GENERATORS).join(' or ')}, not ${name}`);
  return chosen;
})(values.generator ?? (wrkInstalled() ? 'wrk' : 'autocannon'));
const timed = generator.load;
/** Durable writes timed before the run, the floor under the quota's commits. */
const SYNC_PROBES = quick ? 500 : 2_000;
const HISTORY = join(ROOT, 'test', 'fixtures', 'ecb', 'eurofxref-hist.zip');
/** The other banks' recorded responses, each named after its source (`nbp-table-a-….json`). */
const PROVIDERS = join(ROOT, 'test', 'fixtures', 'providers');

/** Every recorded bank document with its source: `providers/<id>-….json` and `providers/more/<id>/…`. */
function recordedBankFiles(): { id: string; file: string }[] {
  const files: { id: string; file: string }[] = [];
  for (const entry of readdirSync(PROVIDERS, { withFileTypes: true })) {
    if (entry.isFile()) files.push({ id: entry.name.split('-')[0]!, file: join(PROVIDERS, entry.name) });
  }
  const more = join(PROVIDERS, 'more');
  for (const bank of readdirSync(more, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const name of readdirSync(join(more, bank.name)).sort()) files.push({ id: bank.name, file: join(more, bank.name, name) });
  }
  return files.sort((a, b) => (a.file < b.file ? -1 : 1));
}
const work = mkdtempSync(join(tmpdir(), 'currency-rates-bench-'));
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);

interface Route {
  name: string;
  path: string | (() => string);
  auth: boolean;
  /** The status every answer must have: a window that got another measured something else. */
  status: number;
  /** The target for this route on the embedded default. */
  target?: RouteTarget;
  /** Where the baseline sends this route's own bytes; else its windows are paired with rates/latest's. */
  baselinePath?: string;
}

function routes(dates: readonly string[]): Route[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const amount = () => `${1 + Math.floor(Math.random() * 1_000_000)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
  const targets = DEFAULT_TRACKED.filter((code) => code !== 'GBP').slice(0, 25).join(',');
  return [
    { name: 'rates/latest', path: '/api/v1/rates/latest', auth: true, status: 200, target: TARGETS.latest },
    { name: 'rates/latest?base=USD&symbols=5', path: '/api/v1/rates/latest?base=USD&symbols=EUR,GBP,JPY,CHF,CAD', auth: true, status: 200 },
    { name: 'rates/{date}, 1000 dates', path: () => `/api/v1/rates/${pick(dates)}?base=GBP`, auth: true, status: 200 },
    { name: 'convert, random amounts', path: () => `/api/v1/convert?from=USD&to=JPY&amount=${amount()}`, auth: true, status: 200, target: TARGETS.convert },
    { name: 'convert/bulk, 25 targets, random amounts', path: () => `/api/v1/convert/bulk?from=GBP&to=${targets}&amount=${amount()}`, auth: true, status: 200, target: TARGETS.bulk },
    { name: 'currencies', path: '/api/v1/currencies', auth: true, status: 200 },
    { name: DROP_IN_ROUTES[0], path: '/v1/latest', auth: true, status: 200 },
    { name: DROP_IN_ROUTES[1], path: '/api/latest.json', auth: true, status: 200 },
    { name: 'rates/{start}..{end}, one year, all currencies (baseline: the same bytes)', path: YEAR_PATH, auth: true, status: 200, target: TARGETS.year, baselinePath: YEAR_PATH },
    { name: '401 (no key)', path: '/api/v1/rates/latest', auth: false, status: 401 },
    { name: '400 (bad parameters)', path: '/api/v1/convert?from=US&to=JPY&amount=abc', auth: true, status: 400 },
  ];
}

/** The drop-in paths as their clients call them (DECISIONS §16): each within 10 % of rates/latest. */
const DROP_IN_ROUTES = ['drop-in: Frankfurter /v1/latest', 'drop-in: Open Exchange Rates /api/latest.json (base USD)'] as const;

function dropInLines(rows: readonly Row[]): string[] {
  const latest = rows.find((row) => row.route === 'rates/latest');
  if (!latest) return [];
  return DROP_IN_ROUTES.flatMap((route) => {
    const row = rows.find((candidate) => candidate.route === route);
    if (!row) return [];
    const share = row.summary.requestsPerSecond / latest.summary.requestsPerSecond;
    return [`${route} within 10 % of rates/latest's requests/s: ${(share * 100).toFixed(1)} %, ${share >= 0.9 ? 'met' : 'NOT met'}`];
  });
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

const counted = (result: CountedResult) => [...result.statuses].filter(([status]) => status !== 401 && status !== 429).reduce((sum, [, n]) => sum + n, 0);

interface Config {
  name: string;
  env: NodeJS.ProcessEnv;
  storeConfig: StoreConfig;
  routes: Route[];
  /** The embedded default: the configuration the targets are stated for. */
  judged?: boolean;
  /** The most its peak RSS may reach through its routes, in MB; unjudged without (several processes). */
  peakLimitMb?: number;
}

/**
 * The baseline, running beside the whole benchmark, measured in windows alternating with the
 * service's: on a shared machine the capacity drifts within seconds, and each ratio compares
 * requests served under the same conditions.
 */
interface Baseline {
  url: string;
  pid: number;
}

/** What a configuration's run leaves besides its rows: its start time and the exactness check. */
interface Measured extends Exactness {
  startMs: number;
  /** The server's peak RSS (VmHWM), its workers' added, through every route and the exactness check. */
  peakMb: number;
  peakLimitMb: number | undefined;
  /** On the judged configuration: what reading its rates/latest answer and the baseline's costs the load generator. */
  parse?: { service: ParseCost; baseline: ParseCost };
}

const exactnessLine = ({ config, counted, stored }: Exactness) =>
  `${config}: ${counted} requests counted by the benchmark, ${stored} stored for the key${counted === stored ? ' (equal)' : ' (DIFFERENT)'}`;

async function measureConfig(config: Config, rows: Row[], baseline: Baseline): Promise<Measured> {
  const { key } = await newKey(config.storeConfig);
  const server: Running = await spawnAndWait(SERVE, config.env, join(work, `${config.name}.log`), '/health');
  log(`${config.name}: listening after ${server.startMs.toFixed(0)} ms`);
  const baselineWindows: LoadResult[] = [];
  try {
    const parse = config.judged && generator.load === load ? await answersParsed(server.url, baseline.url, key) : undefined;
    for (const [index, route] of config.routes.entries()) {
      const headers: Record<string, string> = route.auth ? { authorization: `Bearer ${key}` } : {};
      const path = typeof route.path === 'string' ? route.path : Array.from({ length: VARIED_PATHS }, route.path);
      const spec = { url: server.url, path, headers, serverPid: server.child.pid!, signal: server.died };
      await expectStatus(server.url + (typeof path === 'string' ? path : path[0]!), headers, route.status);
      const baselinePath = route.baselinePath ?? '/api/v1/rates/latest';
      if (route.baselinePath) await expectSameBytes(server.url + route.baselinePath, baseline.url + route.baselinePath, headers);
      await timed({ ...spec, seconds: index === 0 ? FIRST_WARMUP : WARMUP });
      const service: LoadResult[] = [];
      const paired: LoadResult[] = [];
      const target = config.judged ? route.target : undefined;
      const rounds = target ? JUDGED_ROUNDS : ROUNDS;
      for (let round = 0; round < rounds; round++) {
        paired.push(await timed({ url: baseline.url, path: baselinePath, seconds: WINDOW, serverPid: baseline.pid }));
        service.push(await timed({ ...spec, seconds: WINDOW }));
      }
      for (const window of service) answeredAsExpected(`${config.name} ${route.name}`, window, route.status);
      for (const window of paired) answeredAsExpected('the baseline', window, 200);
      const roundRatios = service.map((window, i) => window.requests / window.seconds / (paired[i]!.requests / paired[i]!.seconds));
      const roundCpuRatios = service.flatMap((window, i) => {
        const base = paired[i]!;
        return window.serverCpuMs === undefined || base.serverCpuMs === undefined ? [] : [window.serverCpuMs / window.requests / (base.serverCpuMs / base.requests)];
      });
      const result = combine(service);
      const summary = summarise(result);
      const base = summarise(combine(paired));
      if (!route.baselinePath) baselineWindows.push(...paired);
      const row: Row = {
        config: config.name,
        route: route.name,
        summary,
        baseline: base,
        roundRatios,
        roundCpuRatios,
        rssMb: rssMb(server.child.pid!),
        ...(target ? { target } : {}),
      };
      rows.push(row);
      log(`${config.name} ${route.name}: ${Math.round(summary.requestsPerSecond)} req/s, baseline ${Math.round(base.requestsPerSecond)} (${ratioOf(row).toFixed(2)}; rounds ${roundRange(row.roundRatios)}), p99 ${summary.p99.toFixed(1)} ms (baseline ${base.p99.toFixed(1)}), CPU ${cpuText(summary)} µs/request (baseline ${cpuText(base)}), load generator ${generatorCpuText(summary)} µs/request (baseline rounds ${generatorCpuText(base)}), ${result.refused} of ${result.requests} refused (status 400 or more), ${result.errors} without an answer`);
    }
    const all = combine(baselineWindows);
    const summary = summarise(all);
    rows.push({ config: `baseline (bare node:http), in the windows of ${config.name}`, route: 'same bytes as rates/latest', summary, baseline: summary, roundRatios: [1], roundCpuRatios: [], rssMb: rssMb(baseline.pid) });
    // Exactness: a fixed number of requests on a fresh key, every answer received, then the store asked.
    const fresh = await newKey(config.storeConfig);
    // Servers know keys from memory: a new one works once their refresh (every second) has run.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const exact = await load({ url: server.url, path: '/api/v1/rates/latest', headers: { authorization: `Bearer ${fresh.key}` }, amount: quick ? 5_000 : 20_000, signal: server.died });
    const stored = await storedCount(config.storeConfig, fresh.id);
    const measured = { config: config.name, peakLimitMb: config.peakLimitMb, startMs: server.startMs, counted: counted(exact), stored, peakMb: peakRssMb(server.child.pid!), ...(parse ? { parse } : {}) };
    log(exactnessLine(measured));
    return measured;
  } finally {
    await server.stop();
  }
}

/** The history measurements (bench/history-load.ts), on a server of their own: its RSS is theirs alone. */
async function measureHistoryAlone(env: NodeJS.ProcessEnv, storeConfig: StoreConfig): Promise<HistoryFigures & { startMs: number }> {
  const { key } = await newKey(storeConfig);
  const server = await spawnAndWait(SERVE, env, join(work, 'history.log'), '/health');
  try {
    return { ...(await measureHistory(server.url, key, server.child.pid!, DEFAULT_TRACKED, server.died)), startMs: server.startMs };
  } finally {
    await server.stop();
  }
}

/** One request of a route, before its windows: the exact status its every answer must have. */
async function expectStatus(url: string, headers: Record<string, string>, status: number): Promise<void> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`${url} answered ${response.status}, not the ${status} the benchmark measures`);
}

/** The service and the baseline send the same bytes for this path: the ratio compares like with like. */
async function expectSameBytes(serviceUrl: string, baselineUrl: string, headers: Record<string, string>): Promise<void> {
  const [service, base] = await Promise.all([fetch(serviceUrl, { headers }).then((r) => r.text()), fetch(baselineUrl).then((r) => r.text())]);
  if (service !== base) throw new Error(`${serviceUrl}: the service's ${service.length} bytes differ from the baseline's ${base.length}: ${base.slice(0, 300)}`);
}

/**
 * Every answer of a window in the class of its route's status (wrk tells no finer than below 400
 * or not): a window of answers of another kind (a 429, a 500) would measure something else.
 */
function answeredAsExpected(what: string, window: LoadResult, status: number): void {
  const expected = status >= 400 ? window.requests : 0;
  if (window.refused !== expected) throw new Error(`${what}: ${window.refused} of ${window.requests} answers had a status of 400 or more, expected ${expected}`);
}

/** One rates/latest answer of the service and one of the baseline, each timed on the load generator's parser. */
async function answersParsed(serviceUrl: string, baselineUrl: string, key: string): Promise<{ service: ParseCost; baseline: ParseCost }> {
  const answers = [await rawAnswer(serviceUrl, '/api/v1/rates/latest', { authorization: `Bearer ${key}` }), await rawAnswer(baselineUrl, '/api/v1/rates/latest')];
  const [service, base] = parseCosts(answers);
  return { service: service!, baseline: base! };
}

const parseText = ({ bytes, headerLines, micros }: ParseCost) => `${micros.toFixed(2)} µs (${bytes} bytes, ${headerLines} header lines)`;

async function main(): Promise<void> {
  log(`${quick ? 'quick' : 'full'} run; ${cpus().length} cores; node ${process.version}`);
  const sqliteUrl = `sqlite:${join(work, 'bench.db')}`;

  // Full-history ingestion into a fresh store, and the memory its snapshot takes.
  const stores = await openStores(sqliteUrl);
  let t = performance.now();
  const report = await runIngestion(stores.rates, ecb, { file: HISTORY });
  const ingestMs = performance.now() - t;
  log(`ingested ${report.rates} rates of ${report.days} days in ${ingestMs.toFixed(0)} ms`);
  // The disk's own floor for the quota's commits, in the directory the benchmark's database is in.
  const sync = diskSyncLatency(work, SYNC_PROBES);
  const syncText = `p50 ${sync.p50.toFixed(2)} ms, p99 ${sync.p99.toFixed(2)} ms, max ${sync.max.toFixed(1)} ms (${sync.count.toLocaleString('en')} in a row)`;
  log(`a 4 KiB write + fsync here: ${syncText}`);
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
  const tracked = new TrackedCurrencies(DEFAULT_TRACKED);
  const latestBody = JSON.stringify(latestRates(view.snapshot, tracked, {}));
  const [, start, end] = /(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(YEAR_PATH)!;
  const yearBody = [...rateRangeJson(ratesBetween(view.snapshot, tracked, { start: start!, end: end! }, {}))].join('');
  await stores.close();
  writeFileSync(join(work, 'latest.json'), latestBody);
  writeFileSync(join(work, 'year.json'), yearBody);
  writeFileSync(join(work, 'bodies.json'), JSON.stringify({ [YEAR_PATH]: join(work, 'year.json') }));

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
  const baselineServer = await spawnAndWait([new URL('./baseline-server.js', import.meta.url).pathname], { ...baseEnv, BASELINE_BODY_FILE: join(work, 'latest.json'), BASELINE_BODIES: join(work, 'bodies.json') }, join(work, 'baseline.log'), '/');
  await timed({ url: baselineServer.url, path: '/api/v1/rates/latest', seconds: FIRST_WARMUP });
  const baseline = { url: baselineServer.url, pid: baselineServer.child.pid! };

  const all = routes(dates);
  const configs: Config[] = [
    { name: 'SQLite', env: { ...baseEnv, DATABASE_URL: sqliteUrl }, storeConfig: { databaseUrl: sqliteUrl }, routes: all, judged: true, peakLimitMb: PEAK_RSS_MB.ecb },
  ];
  const reachable = await backendsReachable();
  let pg: Awaited<ReturnType<typeof freshPostgresRedis>> | undefined;
  if (reachable) {
    pg = await freshPostgresRedis();
    const pgStores = await openStores(pg.storeConfig);
    t = performance.now();
    await runIngestion(pgStores.rates, ecb, { file: HISTORY });
    log(`ingested the history into PostgreSQL in ${(performance.now() - t).toFixed(0)} ms`);
    await pgStores.close();
    configs.push({ name: 'PostgreSQL + Redis', env: { ...baseEnv, ...pg.env }, storeConfig: pg.storeConfig, routes: quick ? all.slice(0, 1) : all, peakLimitMb: PEAK_RSS_MB.ecb });
  } else {
    log('PostgreSQL or Redis not reachable: their rows are left out');
  }
  configs.push({ name: 'SQLite, WORKERS=2', env: { ...baseEnv, DATABASE_URL: sqliteUrl, WORKERS: '2' }, storeConfig: { databaseUrl: sqliteUrl }, routes: quick ? all.slice(0, 1) : [all[0]!, all[3]!, all[4]!] });

  const judgedName = configs.find((config) => config.judged)!.name;
  const measured: Measured[] = [];
  try {
    for (const config of configs) measured.push(await measureConfig(config, rows, baseline));
  } finally {
    await baselineServer.stop();
    await pg?.cleanup();
  }
  log('history: the whole history and fluctuations, on a fresh SQLite server');
  const history = historyLines('SQLite, a fresh server', PEAK_RSS_MB.ecb, await measureHistoryAlone({ ...baseEnv, DATABASE_URL: sqliteUrl }, { databaseUrl: sqliteUrl }));

  // The same with every source enabled (DECISIONS §9): the ECB's history and each bank's recorded files.
  const everyUrl = `sqlite:${join(work, 'every-source.db')}`;
  const everyStores = await openStores(everyUrl);
  await runIngestion(everyStores.rates, ecb, { file: HISTORY });
  t = performance.now();
  let bankValues = 0;
  let refused = 0;
  const bankFiles = recordedBankFiles();
  for (const { id, file } of bankFiles) {
    // A few recordings are kept to show their adapter refuses them (a kuna list, an HTML page).
    const report = await runIngestion(everyStores.rates, sourceAdapter(id)!, { file }).catch((err: unknown) => {
      if (err instanceof IngestFormatError) return undefined;
      throw err;
    });
    if (report) bankValues += report.rates;
    else refused += 1;
  }
  const banksMs = performance.now() - t;
  await everyStores.close();
  log(`every source: ${bankValues} bank values from ${bankFiles.length - refused} recorded files ingested in ${banksMs.toFixed(0)} ms (${refused} refused by their adapter, as their tests expect); the history again`);
  const everyFigures = await measureHistoryAlone({ ...baseEnv, DATABASE_URL: everyUrl, SOURCES: 'all' }, { databaseUrl: everyUrl });
  const everySource = historyLines(`SQLite, every source (SOURCES=all, ${SOURCE_IDS.length} sources)`, PEAK_RSS_MB.everySource, everyFigures);

  const markdown = formatReport({
    quick,
    rows,
    facts: [
      `Full-history ingestion (${report.days} days, ${report.rates} rates, from eurofxref-hist.zip, into SQLite): ${(ingestMs / 1000).toFixed(2)} s`,
      `Loading the full history into memory (the snapshot): ${loadMs.toFixed(0)} ms; heap taken by the snapshot: ${snapshotMb.toFixed(1)} MB${gc ? '' : ' (run with --expose-gc for an exact figure)'}`,
      `The disk under the quota: a 4 KiB write + fsync in the benchmark's data directory, what each quota commit (one per batch of requests) waits for before its batch is answered: ${syncText}`,
      `Server start with the full history loaded (spawn → first answer): ${measured.map(({ config, startMs }) => `${config}: ${startMs.toFixed(0)} ms`).join('; ')}`,
      ...measured.map((m) => `Quota exactness — ${exactnessLine(m)}`),
      ...measured.map(({ config, peakMb }) => `${config}: the server's peak RSS (VmHWM${config.includes('WORKERS') ? ', its workers added' : ''}) through every route and the exactness check: ${peakMb.toFixed(0)} MB`),
      ...history.facts,
      `Every source enabled: the banks' recorded files (${bankValues} values) ingested in ${banksMs.toFixed(0)} ms; that server's start with everything loaded (spawn → first answer): ${everyFigures.startMs.toFixed(0)} ms`,
      ...everySource.facts,
      ...measured.flatMap(({ config, parse }) =>
        parse
          ? [`Reading one answer, on the load generator's own parser (autocannon's http-parser-js, each answer parsed ${PARSES.toLocaleString('en')} times in ${PARSE_ROUNDS} interleaved rounds, the median): ${config}'s rates/latest ${parseText(parse.service)}, the baseline's ${parseText(parse.baseline)}. Same body; the service's head carries the headers every answer must (request id, CORS, quota, ETag). The generator shares the cores with the server, so what it spends per answer is part of every ratio: see its CPU per answer in the table.`]
          : [],
      ),
    ],
    targets: {
      config: judgedName,
      lines: [
        ...targetLines({
          rows: rows.filter((row) => row.config === judgedName),
          exactness: measured,
        }),
        ...dropInLines(rows.filter((row) => row.config === judgedName)),
        ...measured.flatMap(({ config, peakMb, peakLimitMb }) => (peakLimitMb === undefined ? [] : [peakRssLine(`${config}, every route`, peakMb, peakLimitMb)])),
        ...history.targets,
        ...everySource.targets,
      ],
    },
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load generator (${generator.named}, 50 keep-alive connections) on the same machine`,
    method: `Each route: a warm-up (${FIRST_WARMUP} s for a server's first route, then ${WARMUP} s), then ${ROUNDS} rounds (${JUDGED_ROUNDS} for the routes the targets judge, on ${judgedName}) of a ${WINDOW} s window on the baseline followed by a ${WINDOW} s window on the service; the ratio is the service's requests over the baseline's in those same rounds. ${generator.method} The quota's exactness check is autocannon's (a fixed number of requests, every status read).`,
    seconds: (performance.now() - started) / 1000,
  });
  console.log(`\n${markdown}`);
  // A file only when asked for, so that a run to look at leaves the committed BENCHMARKS.md alone.
  const out = values.out ?? (values.write ? join(ROOT, 'BENCHMARKS.md') : undefined);
  if (out) {
    writeFileSync(out, markdown);
    log(`written to ${out}`);
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
