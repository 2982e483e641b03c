import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs the built CLI the way a user does (`node dist/src/cli/main.js …`) in a child process.
 * Paths are found from this file's place in dist/test/helpers, not from the working directory.
 */
import { MAIN_JS, REPO_ROOT } from './fixtures.js';

export { MAIN_JS, REPO_ROOT };
export const FIXTURE_DIR = join(REPO_ROOT, 'test', 'fixtures');

export function fixture(name: string): string {
  return join(FIXTURE_DIR, name);
}

/** Variables the service reads; the parent's values never leak into a test's child. */
const SERVICE_VARS = new Set([
  'DATABASE_URL', 'PORT', 'HOST', 'QUOTA_LIMIT', 'QUOTA_PERIOD_DAYS', 'CURRENCIES', 'LOG_LEVEL',
  'INGEST_ON_EMPTY', 'INGEST_SCHEDULE', 'INGEST_SCHEDULE_SOURCE', 'REFRESH_INTERVAL_MS', 'REDIS_URL',
  'REDIS_KEY_PREFIX', 'WORKERS',
  // set by `node --test` for its own children; the CLI is not a test file
  'NODE_TEST_CONTEXT',
]);

/**
 * The environment of a CLI or server child: the parent's minus the service's variables, one
 * SQLite file, no network ingestion at start and no schedule, then `extra`.
 */
export function serviceEnv(dbPath: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!SERVICE_VARS.has(name)) env[name] = value;
  return { ...env, DATABASE_URL: `sqlite:${dbPath}`, INGEST_ON_EMPTY: 'off', INGEST_SCHEDULE: 'off', ...extra };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the run was killed for taking longer than the timeout. */
  timedOut: boolean;
  ms: number;
}

/** Runs `main.js …args` to its end (killed after `timeoutMs`, so a test can never hang on it). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN_JS, ...args], {
      env,
      cwd: options.cwd ?? tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 20_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - started });
    });
  });
}

/** A short description of a run for assertion messages. */
export function describeRun(result: CliResult): string {
  return `exit ${result.code}${result.signal ? ` (signal ${result.signal})` : ''}${result.timedOut ? ' after a timeout' : ''}\n` +
    `--- stdout ---\n${result.stdout}--- stderr ---\n${result.stderr}`;
}

export interface IngestSummary {
  days: number;
  rates: number;
  added: number;
  changed: number;
}

/**
 * Reads the one-line summary of `ingest` ("… N days …, N rates, N new, N changed"), or undefined
 * when stdout is not exactly one line carrying the four numbers.
 */
export function parseIngestSummary(stdout: string): IngestSummary | undefined {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1) return undefined;
  const line = lines[0]!;
  const number = (pattern: RegExp) => {
    const match = pattern.exec(line);
    return match ? Number(match[1]) : undefined;
  };
  const days = number(/(\d+) days?\b/);
  const rates = number(/(\d+) rates?\b/);
  const added = number(/(\d+) new\b/);
  const changed = number(/(\d+) changed\b/);
  if (days === undefined || rates === undefined || added === undefined || changed === undefined) return undefined;
  return { days, rates, added, changed };
}

/** Runs `work` over `items` with at most `limit` at a time, results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
