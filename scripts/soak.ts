/**
 * `npm run soak [-- --seconds N] [-- --connections C] [-- --keys K]`: a bounded soak of the real
 * service on the full ECB history.
 *
 * 1. Ingests test/fixtures/ecb/eurofxref-hist.zip into a temporary SQLite store and creates many
 *    keys with a quota that cannot run out.
 * 2. Starts `currency-rates serve` as its own process (LOG_LEVEL=info, logs discarded).
 * 3. Builds a fixed mix of distinct requests — latest, by date over many dates, convert, bulk,
 *    currencies, and 400/401/404 answers — and records each one's answer once, checking its
 *    status is the one its kind must get.
 * 4. Drives the mix at full speed with autocannon; every answer must have the recorded status
 *    and the recorded bytes (a race, a cache mix-up or a torn read shows up as a mismatch).
 * 5. Samples the server's RSS throughout and reports errors, latency percentiles and memory.
 *
 * Exits 1 on any error (a 5xx, a connection error or timeout, an answer not matching) or when
 * memory grows past the margin between the start of the load and its end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateApiKey, hashApiKey } from '../src/domain/api-keys.js';
import { openStores } from '../src/storage/open-stores.js';
import { historyCsvText, HISTORY_ZIP } from '../test/helpers/ecb-history-csv.js';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { freePort, MAIN_JS, rssMb as rssMbExact, SERVE } from '../bench/processes.js';

/** Memory may grow this much between the first sample under load and the last one. */
const RSS_MARGIN_MB = 64;

const TRACKED = [
  'USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'ISK', 'NOK', 'TRY', 'AUD',
  'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR', 'EUR',
];
/** Quoted on every day of the history: conversions between them always have data. */
const ALWAYS = ['EUR', 'USD', 'JPY', 'GBP', 'CHF', 'AUD', 'CAD', 'SEK', 'NOK', 'DKK', 'NZD', 'ZAR', 'HKD', 'SGD', 'KRW', 'CZK', 'HUF', 'PLN'];

interface Spec {
  kind: string;
  path: string;
  /** Index into the keys, or a header to send instead. */
  auth: number | 'none' | 'wrong';
  /** The statuses this kind of request may get. */
  allowed: number[];
  /** Recorded in the reference pass. */
  status?: number;
  body?: string;
}

function options() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      connections: { type: 'string', default: '32' },
      keys: { type: 'string', default: '100' },
      requests: { type: 'string', default: '5000' },
    },
    strict: true,
  });
  const int = (name: keyof typeof values) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  return { seconds: int('seconds'), connections: int('connections'), keys: int('keys'), distinct: int('requests') };
}

function buildMix(distinct: number, keys: number, dates: string[]): Spec[] {
  const next = seededRandom(20260413);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const key = () => Math.floor(next() * keys);
  const amount = () => (next() < 0.2 ? `${1 + Math.floor(next() * 1e9)}.${Math.floor(next() * 1e6)}` : (1 + next() * 10_000).toFixed(Math.floor(next() * 4)));
  const makers: [number, () => Spec][] = [
    [12, () => ({ kind: 'latest', path: `/api/v1/rates/latest?base=${pick(ALWAYS)}`, auth: key(), allowed: [200] })],
    [4, () => ({ kind: 'latest with symbols', path: `/api/v1/rates/latest?base=${pick(TRACKED)}&symbols=${[pick(TRACKED), pick(TRACKED)].join(',')}`, auth: key(), allowed: [200] })],
    [22, () => ({ kind: 'by date', path: `/api/v1/rates/${pick(dates)}?base=${pick(ALWAYS)}`, auth: key(), allowed: [200] })],
    [4, () => ({ kind: 'by date, maybe a holiday', path: `/api/v1/rates/${1999 + Math.floor(next() * 27)}-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`, auth: key(), allowed: [200, 404] })],
    [22, () => ({ kind: 'convert', path: `/api/v1/convert?from=${pick(ALWAYS)}&to=${pick(ALWAYS)}&amount=${amount()}`, auth: key(), allowed: [200] })],
    [12, () => ({ kind: 'bulk', path: `/api/v1/convert/bulk?from=${pick(ALWAYS)}&amount=${amount()}&to=${Array.from({ length: 1 + Math.floor(next() * 25) }, () => pick(TRACKED)).join(',')}`, auth: key(), allowed: [200] })],
    [6, () => ({ kind: 'currencies', path: '/api/v1/currencies', auth: key(), allowed: [200] })],
    [7, () => ({ kind: '400', path: pick([`/api/v1/convert?from=${pick(ALWAYS)}&to=x&amount=${amount()}`, `/api/v1/rates/2025-02-30`, `/api/v1/convert/bulk?from=EUR&amount=-1&to=USD`, `/api/v1/rates/latest?base=XYZ`, `/api/v1/rates/latest?symbols=USD,,GBP`]), auth: key(), allowed: [400] })],
    [5, () => ({ kind: '401', path: pick(['/api/v1/rates/latest', `/api/v1/convert?from=USD&to=GBP&amount=${amount()}`]), auth: pick(['none', 'wrong'] as const), allowed: [401] })],
    [6, () => ({ kind: '404', path: pick([`/api/v1/rates/${pick(dates).slice(0, 8)}0${1 + Math.floor(next() * 1)}x`, `/api/v2/rates/latest`, `/nope/${Math.floor(next() * 1000)}`, `/api/v1/rates/2031-01-02`]), auth: key(), allowed: [400, 404] })],
  ];
  const total = makers.reduce((sum, [weight]) => sum + weight, 0);
  const seen = new Set<string>();
  const mix: Spec[] = [];
  for (let attempts = 0; mix.length < distinct && attempts < distinct * 20; attempts++) {
    let roll = next() * total;
    const maker = makers.find(([weight]) => (roll -= weight) < 0)![1];
    const spec = maker();
    const id = `${spec.auth === 'none' || spec.auth === 'wrong' ? spec.auth : 'key'} ${spec.path}`;
    if (seen.has(id) && spec.kind !== 'currencies') continue;
    seen.add(id);
    mix.push(spec);
  }
  return mix;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN_JS, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`currency-rates ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/** Whole megabytes, as the report prints them. */
const rssMb = (pid: number): number => Math.round(rssMbExact(pid));

async function waitForServer(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${stderr()}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function headersFor(spec: Spec, keys: string[]): Record<string, string> {
  if (spec.auth === 'none') return {};
  if (spec.auth === 'wrong') return { authorization: `Bearer ${generateApiKey()}` };
  return { authorization: `Bearer ${keys[spec.auth]!}` };
}

async function main(): Promise<number> {
  const opts = options();
  const dir = mkdtempSync(join(tmpdir(), 'currency-rates-soak-'));
  let server: ChildProcess | undefined;
  try {
    const databaseUrl = `sqlite:${join(dir, 'rates.db')}`;
    const base: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, INGEST_ON_EMPTY: 'off', INGEST_SCHEDULE: 'off' };
    for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX', 'WORKERS', 'NODE_TEST_CONTEXT']) delete base[name];

    let started = performance.now();
    console.log((await run(['ingest', '--file', HISTORY_ZIP], base)).trim());
    console.log(`  (${Math.round(performance.now() - started)} ms)`);
    const stores = await openStores(databaseUrl);
    const keys: string[] = [];
    for (let i = 0; i < opts.keys; i++) {
      const key = generateApiKey();
      await stores.keys.create(`soak ${i + 1}`, hashApiKey(key), new Date());
      keys.push(key);
    }
    await stores.close();
    console.log(`created ${keys.length} keys`);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let stderr = '';
    started = performance.now();
    server = spawn(process.execPath, SERVE, {
      env: { ...base, PORT: String(port), HOST: '127.0.0.1', QUOTA_LIMIT: '1000000000', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitForServer(url, server, () => stderr);
    const pid = server.pid!;
    console.log(`server pid ${pid} answering after ${Math.round(performance.now() - started)} ms, RSS ${rssMb(pid)} MB`);

    // The reference pass: each distinct request once, its status checked against its kind.
    const dates = (await historyCsvText()).split('\n').slice(1).map((line) => line.slice(0, 10)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
    const mix = buildMix(opts.distinct, keys.length, dates);
    const wrongKind: string[] = [];
    for (const spec of mix) {
      const response = await fetch(url + spec.path, { headers: headersFor(spec, keys) });
      spec.status = response.status;
      spec.body = await response.text();
      if (!spec.allowed.includes(response.status)) wrongKind.push(`${spec.kind} ${spec.path}: ${response.status} ${spec.body.slice(0, 200)}`);
    }
    const byKind = new Map<string, number>();
    for (const spec of mix) byKind.set(spec.kind, (byKind.get(spec.kind) ?? 0) + 1);
    console.log(`mix: ${mix.length} distinct requests: ${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
    if (wrongKind.length > 0) throw new Error(`the reference pass got unexpected answers:\n${wrongKind.slice(0, 20).join('\n')}`);

    // The load.
    const samples: { at: number; rss: number }[] = [{ at: 0, rss: rssMb(pid) }];
    const loadStarted = performance.now();
    const sampler = setInterval(() => samples.push({ at: (performance.now() - loadStarted) / 1000, rss: rssMb(pid) }), 1000);
    const mismatches: string[] = [];
    let cursor = 0;
    const statuses = new Map<number, number>();
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: opts.connections,
          duration: opts.seconds,
          timeout: 10,
          requests: [
            {
              setupRequest: (request, context) => {
                const spec = mix[cursor++ % mix.length]!;
                (context as { spec?: Spec }).spec = spec;
                return { ...request, method: 'GET', path: spec.path, headers: headersFor(spec, keys) };
              },
              onResponse: (status, body, context) => {
                const spec = (context as { spec?: Spec }).spec!;
                if (status !== spec.status || body !== spec.body) {
                  if (mismatches.length < 1000) mismatches.push(`${spec.path}: ${status} ${body.slice(0, 160)} (recorded ${spec.status})`);
                }
              },
            },
          ],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      instance.on('response', (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
    });
    clearInterval(sampler);
    samples.push({ at: (performance.now() - loadStarted) / 1000, rss: rssMb(pid) });

    // The report.
    const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    const errors = result.errors + result.timeouts + fivexx + mismatches.length;
    const underLoad = samples.filter((s) => s.at >= Math.min(5, opts.seconds / 10));
    const start = underLoad[0]?.rss ?? samples[0]!.rss;
    const middle = underLoad[Math.floor(underLoad.length / 2)]?.rss ?? start;
    const end = samples[samples.length - 1]!.rss;
    const peak = Math.max(...samples.map((s) => s.rss));
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log('');
    console.log(`soak: ${opts.seconds} s, ${opts.connections} connections, ${keys.length} keys, ${mix.length} distinct requests`);
    console.log(`requests: ${total} (${Math.round(result.requests.average)}/s on average)`);
    console.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
    console.log(`errors: ${errors} (connection errors ${result.errors}, timeouts ${result.timeouts}, 5xx ${fivexx}, answers not as recorded ${mismatches.length})`);
    console.log(`latency ms: p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, p99.9 ${result.latency.p99_9}, max ${result.latency.max}`);
    console.log(`server RSS MB: before load ${samples[0]!.rss}, start ${start}, middle ${middle}, end ${end}, peak ${peak} (margin ${RSS_MARGIN_MB})`);
    const tenths = Array.from({ length: 11 }, (_, i) => samples.reduce((best, s) => (Math.abs(s.at - (opts.seconds * i) / 10) < Math.abs(best.at - (opts.seconds * i) / 10) ? s : best)));
    console.log(`server RSS MB every ${opts.seconds / 10} s: ${tenths.map((s) => s.rss).join(' ')}`);
    for (const line of mismatches.slice(0, 10)) console.log(`  mismatch: ${line}`);

    let failed = false;
    if (errors > 0) {
      console.error('FAIL: errors during the soak');
      failed = true;
    }
    if (end - start > RSS_MARGIN_MB) {
      console.error(`FAIL: server memory grew ${end - start} MB under load (margin ${RSS_MARGIN_MB} MB)`);
      failed = true;
    }
    if (!failed) console.log('PASS');
    return failed ? 1 : 0;
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          server!.kill('SIGKILL');
          resolve(undefined);
        }, 10_000);
        server!.once('close', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`soak: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
