import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, mapLimit, REPO_ROOT, runCli, serviceEnv, type CliResult } from '../helpers/cli.js';
import { freePort } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/**
 * The CLI's contract with a shell: usage errors and bad configuration exit non-zero with a
 * message on stderr, --help exits 0. Every run is bounded: a `serve` that starts anyway is
 * killed after a few seconds and fails its assertion.
 */
const BOUNDED = { timeoutMs: 8000 };

function failed(result: CliResult): boolean {
  return !result.timedOut && result.code !== 0 && result.code !== null;
}

test('when the command is unknown or missing, then usage goes to stderr and the exit is non-zero', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'rates.db'));
  const [unknown, missing] = await Promise.all([runCli(['frobnicate'], env, BOUNDED), runCli([], env, BOUNDED)]);
  assert.ok(unknown && missing);
  assert.ok(failed(unknown), describeRun(unknown));
  assert.match(unknown.stderr, /usage/i);
  assert.match(unknown.stderr, /frobnicate/, 'the message names the unknown command');
  assert.ok(failed(missing), describeRun(missing));
  assert.match(missing.stderr, /usage/i);
});

test('when the command names a property every object has (constructor, toString), then it is unknown like any other', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'rates.db'));
  for (const result of await Promise.all(['constructor', 'toString', '__proto__'].map((name) => runCli([name], env, BOUNDED)))) {
    assert.ok(result);
    assert.equal(result.code, 2, describeRun(result));
    assert.match(result.stderr, /unknown command/);
  }
});

test('when a command gets an unknown flag, a flag without its value or a stray argument, then it exits non-zero with usage on stderr', async (t) => {
  const dir = tempDir(t);
  const env = serviceEnv(join(dir, 'rates.db'), { PORT: String(await freePort()), HOST: '127.0.0.1' });
  const runs = [
    ['serve', '--bogus'],
    ['ingest', '--bogus'],
    ['ingest', '--file'],
    ['keys'],
    ['keys', 'rotate'],
    ['keys', 'create', '--bogus'],
    ['keys', 'create', '--name'],
    ['keys', 'list', '--bogus'],
    ['keys', 'revoke', '--bogus', '1'],
    ['migrate', '--bogus'],
  ];
  const results = await mapLimit(runs, 4, (args) => runCli(args, env, BOUNDED));
  results.forEach((result, i) => {
    const what = runs[i]!.join(' ');
    assert.ok(failed(result), `${what}: ${describeRun(result)}`);
    assert.match(result.stderr, /usage/i, `${what} prints usage on stderr`);
  });
});

test('when --help is given to any command, then usage goes to stdout, the exit is 0 and the database is not touched', async (t) => {
  const dir = tempDir(t);
  const dbPath = join(dir, 'rates.db');
  const env = serviceEnv(dbPath, { PORT: String(await freePort()), HOST: '127.0.0.1' });
  const runs: [args: string[], mentions: RegExp[]][] = [
    [['--help'], [/serve/, /ingest/, /keys/, /migrate/]],
    [['serve', '--help'], [/serve/]],
    [['ingest', '--help'], [/--file/, /--url/, /--source/]],
    [['keys', '--help'], [/create/, /list/, /revoke/]],
    [['migrate', '--help'], [/migrate/]],
  ];
  const results = await mapLimit(runs, 4, ([args]) => runCli(args, env, BOUNDED));
  results.forEach((result, i) => {
    const [args, mentions] = runs[i]!;
    const what = args.join(' ');
    assert.equal(result.code, 0, `${what}: ${describeRun(result)}`);
    assert.match(result.stdout, /usage/i, `${what} prints usage on stdout`);
    for (const mention of mentions) assert.match(result.stdout, mention, `${what} mentions ${mention}`);
  });
  assert.ok(!existsSync(dbPath), '--help creates no database');
});

test('when migrate runs on a fresh database, then it prints the migrations it applied; when it runs again, then it says the schema is up to date', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'fresh.db'));
  const migrations = readdirSync(join(REPO_ROOT, 'migrations', 'sqlite'))
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.replace(/\.sql$/, ''));
  assert.ok(migrations.length > 0);

  const first = await runCli(['migrate'], env, BOUNDED);
  assert.equal(first.code, 0, describeRun(first));
  for (const name of migrations) assert.ok(first.stdout.includes(name), `the first run names ${name}: ${first.stdout}`);

  const second = await runCli(['migrate'], env, BOUNDED);
  assert.equal(second.code, 0, describeRun(second));
  assert.match(second.stdout, /up to date/i);
  for (const name of migrations) assert.ok(!second.stdout.includes(name), `the second run applies nothing: ${second.stdout}`);
});

test('when a configuration variable is invalid, then serve exits non-zero with a message naming the variable', async (t) => {
  const dir = tempDir(t);
  const port = String(await freePort());
  const cases: [name: string, value: string][] = [
    ['QUOTA_LIMIT', 'abc'],
    ['PORT', '99999'],
    ['QUOTA_PERIOD_DAYS', '-3'],
    ['CURRENCIES', 'USD,EURO'],
    ['LOG_LEVEL', 'loud'],
    ['REFRESH_INTERVAL_MS', 'often'],
    ['INGEST_SCHEDULE', '25:00'],
    ['DATABASE_URL', 'nosuchdb://user:secret@localhost/rates'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_URL', 'postgres://user:secret@[bad/rates'],
    ['REDIS_URL', 'redis://:secret@[bad:6379'],
  ];
  const results = await mapLimit(cases, 4, ([name, value]) =>
    runCli(['serve'], serviceEnv(join(dir, 'rates.db'), { PORT: port, HOST: '127.0.0.1', [name]: value }), BOUNDED),
  );
  results.forEach((result, i) => {
    const [name, value] = cases[i]!;
    assert.ok(failed(result), `${name}=${value}: ${describeRun(result)}`);
    assert.ok(result.stderr.includes(name), `${name}=${value}: the message names ${name}: ${result.stderr}`);
  });
  const leaked = results.find((result) => (result.stdout + result.stderr).includes('secret'));
  assert.equal(leaked, undefined, 'a password in DATABASE_URL is not echoed');
});
