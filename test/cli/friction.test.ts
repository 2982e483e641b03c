import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseForLog } from '../../src/config.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import { describeRun, fixture, REPO_ROOT, runCli, serviceEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/test-server.js';
import { startLoggedServer } from '../helpers/logged-server.js';

/**
 * What an operator meets first: the version, the help of `serve`, counts that read right, key
 * names that cannot garble a terminal, and a server that says what it serves and when it picks
 * up new data.
 */

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('when the CLI is asked for --version or -v, then it prints the package version alone and exits 0', async (t) => {
  const env = serviceEnv(join(tempDir(t), 'rates.db'));
  for (const flag of ['--version', '-v']) {
    const result = await runCli([flag], env);
    assert.equal(result.code, 0, describeRun(result));
    assert.equal(result.stdout, `${VERSION}\n`, flag);
    assert.equal(result.stderr, '', flag);
  }
  const help = await runCli(['--help'], env);
  assert.match(help.stdout, /--version/, 'the main help names it');
});

test('when serve --help is asked, then it lists METRICS and METRICS_TOKEN with the other variables', async (t) => {
  const result = await runCli(['serve', '--help'], serviceEnv(join(tempDir(t), 'rates.db')));
  assert.equal(result.code, 0, describeRun(result));
  const listed: string[] = result.stdout.match(/\b[A-Z][A-Z_]{2,}\b/g) ?? [];
  for (const name of ['PORT', 'HOST', 'DATABASE_URL', 'WORKERS', 'METRICS', 'METRICS_TOKEN']) {
    assert.ok(listed.includes(name), `${name} is listed: ${result.stdout}`);
  }
});

test('when one day is ingested, then the summary says "1 day", never "1 days"', async (t) => {
  const db = join(tempDir(t), 'rates.db');
  const result = await runCli(['ingest', '--file', fixture('daily.xml')], serviceEnv(db));
  assert.equal(result.code, 0, describeRun(result));
  assert.doesNotMatch(result.stdout, /\b1 days\b/);
  assert.match(result.stdout, /: 1 day \(2026-07-06 \.\. 2026-07-06\), /);
});

test('when keys create gets a name with control characters, line breaks, escapes or over 100 characters, then it exits 2 and creates nothing', async (t) => {
  const db = join(tempDir(t), 'rates.db');
  const env = serviceEnv(db);
  const refused = ['two\nlines', 'red \x1b[31malert', 'tab\there', 'bell\x07', 'del\x7f', 'c1\x9bcsi', 'rtl \u202eevil', 'x'.repeat(101), '', '   '];
  for (const name of refused) {
    const result = await runCli(['keys', 'create', '--name', name], env);
    assert.equal(result.code, 2, `${JSON.stringify(name)}: ${describeRun(result)}`);
    assert.equal(result.stdout, '', JSON.stringify(name));
    assert.match(result.stderr, /^currency-rates keys: --name must be 1 to 100 printable characters/, JSON.stringify(name));
    assert.match(result.stderr, /Usage: currency-rates keys/, JSON.stringify(name));
    assert.ok(!result.stderr.includes('\x1b') && !result.stderr.includes('\u202e'), 'the refused name is not echoed');
  }
  const listed = await runCli(['keys', 'list'], env);
  assert.equal(listed.code, 0, describeRun(listed));
  assert.equal(listed.stdout.trim().split('\n').length, 1, `only the header: ${listed.stdout}`);

  for (const name of ['x'.repeat(100), 'Café team 2', 'ci-bot (staging)']) {
    const result = await runCli(['keys', 'create', '--name', name], env);
    assert.equal(result.code, 0, `${name}: ${describeRun(result)}`);
  }
});

/** The production server on a random port of 127.0.0.1 and the database at `db`, its log lines kept for the test. */
function start(t: TestContext, db: string, env: Record<string, string> = {}) {
  return startLoggedServer(t, { DATABASE_URL: `sqlite:${db}`, ...env });
}

test('when the server starts, then one line names the database, the stored days, the currencies served and the /docs URL', async (t) => {
  const db = join(tempDir(t), 'rates.db');
  const stores = await openStores(`sqlite:${db}`);
  await runIngestion(stores.rates, ecb, { file: fixture('hist.csv') });
  await stores.close();
  const { port, lines } = await start(t, db);
  assert.deepEqual(
    lines.filter((line) => line.msg.startsWith('serving ')).map(({ level, msg }) => ({ level, msg })),
    [{ level: 30, msg: `serving 31 currencies from sqlite:${db}: 4 days of rates, 2022-08-31 .. 2026-04-13; API reference at http://127.0.0.1:${port}/docs` }],
  );

  const empty = join(tempDir(t), 'empty.db');
  const fresh = await start(t, empty, { CURRENCIES: 'USD' });
  assert.deepEqual(
    fresh.lines.filter((line) => line.msg.startsWith('serving ')).map(({ msg }) => msg),
    [`serving 1 currency from sqlite:${empty}: no rates stored yet; API reference at http://127.0.0.1:${fresh.port}/docs`],
  );
});

test('when new data lands while the server runs, then it logs one line as it picks it up', async (t) => {
  const db = join(tempDir(t), 'rates.db');
  const { lines } = await start(t, db, { REFRESH_INTERVAL_MS: '100' });
  const pickedUp = () => lines.filter((line) => line.msg.startsWith('picked up ')).map(({ level, msg }) => ({ level, msg }));
  await sleep(300);
  assert.deepEqual(pickedUp(), [], 'nothing new, nothing said');

  const stores = await openStores(`sqlite:${db}`);
  t.after(() => stores.close());
  await runIngestion(stores.rates, ecb, { file: fixture('daily.xml') });
  for (let i = 0; i < 50 && pickedUp().length === 0; i++) await sleep(50);
  await sleep(500);
  assert.deepEqual(pickedUp(), [{ level: 30, msg: 'picked up new rates: now 1 day of rates, 2026-07-06 .. 2026-07-06' }]);

  await runIngestion(stores.rates, ecb, { file: fixture('hist.csv') });
  for (let i = 0; i < 50 && pickedUp().length === 1; i++) await sleep(50);
  await sleep(300);
  assert.deepEqual(pickedUp().at(-1), { level: 30, msg: 'picked up new rates: now 5 days of rates, 2022-08-31 .. 2026-07-06' });
  assert.equal(pickedUp().length, 2, 'one line per pick-up');
});

test('when DATABASE_URL carries a password, then what the log shows of it has none', () => {
  assert.equal(databaseForLog('postgres://rates:s3cret@db.internal:5432/rates'), 'postgres://rates@db.internal:5432/rates');
  assert.equal(databaseForLog('postgresql://rates:s3cret@db/rates?sslmode=require&password=other'), 'postgresql://rates@db/rates');
  assert.equal(databaseForLog('sqlite::memory:'), 'sqlite::memory:');
  assert.equal(databaseForLog('sqlite:/var/lib/rates.db'), 'sqlite:/var/lib/rates.db');
});

test('when serve fails to start (its port taken), then what it logged on the way is written out before it exits 1', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = String((taken.address() as AddressInfo).port);
  const run = await runCli(['serve'], serviceEnv(join(tempDir(t), 'taken.db'), { PORT: port, HOST: '127.0.0.1' }));
  assert.equal(run.code, 1, describeRun(run));
  assert.match(run.stderr, /EADDRINUSE/);
  assert.match(run.stdout, /"msg":"\/metrics answers without a token: HOST 127\.0\.0\.1 is a loopback address/, describeRun(run));
});
