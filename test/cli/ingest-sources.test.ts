import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { FEED_NAMES, SOURCE_IDS } from '../../src/ingest/sources/registry.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv, type CliResult, type IngestSummary } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { edited, PROVIDER_FILES, providerText } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

/** `ingest --source ID --file PATH`: one recorded document of a bank, all or nothing. */

const RECORDED: [string, string, IngestSummary][] = [
  ['nbp', PROVIDER_FILES.nbpA, { days: 4, rates: 128, added: 128, changed: 0 }],
  ['nbp', PROVIDER_FILES.nbpB, { days: 1, rates: 116, added: 116, changed: 0 }],
  ['cnb', PROVIDER_FILES.cnb, { days: 65, rates: 1950, added: 1950, changed: 0 }],
  ['boc', PROVIDER_FILES.boc, { days: 5, rates: 115, added: 115, changed: 0 }],
  ['cbr', PROVIDER_FILES.cbr, { days: 1, rates: 54, added: 54, changed: 0 }],
  ['nbu', PROVIDER_FILES.nbu, { days: 16, rates: 720, added: 720, changed: 0 }],
];

function database(t: TestContext) {
  const path = join(tempDir(t, 'currency-rates-sources-'), 'rates.db');
  return { path, env: serviceEnv(path) };
}

function expectSummary(result: CliResult, expected: IngestSummary, what: string): void {
  assert.equal(result.code, 0, `${what} ${describeRun(result)}`);
  assert.deepEqual(parseIngestSummary(result.stdout), expected, `${what}: ${result.stdout}`);
}

/** The values stored for `source` on `date`, read back through the port. */
async function storedOn(path: string, source: string, date: string): Promise<Record<string, string>> {
  const stores = openSqliteStores(path);
  try {
    const { rows } = await stores.rates.rowsSince(0);
    return Object.fromEntries(rows.filter((row) => row.source === source && row.date === date).map((row) => [row.currency, row.value]));
  } finally {
    await stores.close();
  }
}

test('when each recorded bank file is ingested with --source and --file, then one summary line is printed; when again, then 0 new and 0 changed', async (t) => {
  const { path, env } = database(t);
  for (const [source, file, first] of RECORDED) {
    const path = fixture(`providers/${file}`);
    const run = await runCli(['ingest', '--source', source, '--file', path], env);
    expectSummary(run, first, `${source} ${file}`);
    assert.match(run.stdout, new RegExp(`^ingested ${source} `), 'the summary names the source');
    t.diagnostic(`${source} ${file}: ${Math.round(run.ms)} ms for the whole CLI run`);
    expectSummary(await runCli(['ingest', '--source', source, '--file', path], env), { ...first, added: 0, changed: 0 }, `${file} again`);
  }
  // Per one unit, nominals divided out, as the banks wrote them (fixtures README).
  assert.deepEqual(
    Object.entries(await storedOn(path, 'cbr', '2026-04-25')).filter(([code]) => ['EUR', 'IRR', 'DZD'].includes(code)).sort(),
    [['DZD', '0.570006'], ['EUR', '88.2826'], ['IRR', '0.0000539256']],
  );
  const nbp = await storedOn(path, 'nbp', '2026-03-04');
  assert.equal(Object.keys(nbp).length, 32 + 116, 'tables A and B of one day side by side');
  assert.equal(nbp['AFN'], '0.056626');
  assert.equal((await storedOn(path, 'cnb', '2026-01-02'))['HUF'], '0.06304');
  assert.equal((await storedOn(path, 'nbu', '2026-03-01'))['XAU'], '223871.54');
  assert.equal((await storedOn(path, 'boc', '2026-03-18'))['EUR'], '1.5774');
  const stores = openSqliteStores(path);
  t.after(() => stores.close());
  assert.equal(await stores.rates.lastDay('ecb'), null, "the ECB's rates are untouched");
});

test('when a bank file is malformed, then the run exits non-zero naming the file, day and currency, and writes nothing', async (t) => {
  const { path, env } = database(t);
  expectSummary(await runCli(['ingest', '--source', 'cbr', '--file', fixture(`providers/${PROVIDER_FILES.cbr}`)], env), RECORDED[4]![2], 'cbr');
  const before = dumpDatabase(path);
  const dir = tempDir(t);
  const bad = join(dir, 'nbu-bad.json');
  // The very last row of the file is broken: every row before it parsed fine, none may land.
  const text = providerText(PROVIDER_FILES.nbu);
  const last = text.lastIndexOf('"rate":');
  writeFileSync(bad, text.slice(0, last) + text.slice(last).replace(/"rate":[0-9.]+/, '"rate":12,5'));
  const run = await runCli(['ingest', '--source', 'nbu', '--file', bad], env);
  assert.notEqual(run.code, 0, describeRun(run));
  assert.match(run.stderr, /nbu-bad\.json: not valid JSON/);
  const wrongSource = await runCli(['ingest', '--source', 'cnb', '--file', fixture(`providers/${PROVIDER_FILES.nbu}`)], env);
  assert.notEqual(wrongSource.code, 0, describeRun(wrongSource));
  assert.match(wrongSource.stderr, /nbu-exchange-site-2026-03-01_2026-03-16\.json: the document: expected an object, got an array/);
  const badValue = join(dir, 'nbp-bad.json');
  writeFileSync(badValue, edited(providerText(PROVIDER_FILES.nbpA), '"code":"GBP","mid":4.8215', '"code":"GBP","mid":-4.8215'));
  const run2 = await runCli(['ingest', '--source', 'nbp', '--file', badValue], env);
  assert.notEqual(run2.code, 0, describeRun(run2));
  assert.match(run2.stderr, /nbp-bad\.json: 2026-03-02 currency=GBP: invalid rate "-4.8215"/);
  assert.equal(parseIngestSummary(run2.stdout), undefined);
  assert.equal(dumpDatabase(path), before, 'nothing was written');
});

test('when --source ecb is given a file, then it is ingested as the ECB file it is, into the rates it always served', async (t) => {
  const { env } = database(t);
  expectSummary(await runCli(['ingest', '--source', 'ecb', '--file', fixture('daily.xml')], env), { days: 1, rates: 6, added: 6, changed: 0 }, 'ecb');
  expectSummary(await runCli(['ingest', '--file', fixture('daily.xml')], env), { days: 1, rates: 6, added: 0, changed: 0 }, 'the same file without --source');
});

test('when an ECB file is ingested with --source ecb and without --source, then the two stores hold exactly the same', async (t) => {
  const withSource = database(t);
  const without = database(t);
  for (const file of ['hist.csv', 'daily.xml', 'ecb/eurofxref-hist-90d.xml']) {
    const a = await runCli(['ingest', '--source', 'ecb', '--file', fixture(file)], withSource.env);
    const b = await runCli(['ingest', '--file', fixture(file)], without.env);
    assert.equal(a.code, 0, describeRun(a));
    assert.equal(a.stdout, b.stdout, 'the same summary line');
  }
  // Everything but the times the schema was made at.
  const dump = (path: string) => dumpDatabase(path).replace(/"applied_at":\d+/g, '"applied_at":…');
  assert.equal(dump(withSource.path), dump(without.path));
});

test('when --since is given a bad date, a future one, or beside --file, then it is a usage error and nothing is written', async (t) => {
  const { path, env } = database(t);
  const runs = [
    ['ingest', '--source', 'nbp', '--since', '2026-02-30'],
    ['ingest', '--source', 'nbp', '--since', '9999-01-01'],
    ['ingest', '--source', 'nbp', '--since', '2026-03-01', '--file', fixture(`providers/${PROVIDER_FILES.nbpA}`)],
    ['ingest', '--source', 'ecb-hist', '--since', '2026-03-01'],
  ];
  const results = await Promise.all(runs.map((args) => runCli(args, env)));
  results.forEach((result, i) => assert.equal(result.code, 2, `${runs[i]!.join(' ')}: ${describeRun(result)}`));
  assert.match(results[0]!.stderr, /--since must be a calendar date YYYY-MM-DD: 2026-02-30/);
  assert.match(results[1]!.stderr, /--since must not be after today \(\d{4}-\d{2}-\d{2}, UTC\): 9999-01-01/);
  assert.match(results[2]!.stderr, /--since reads the source's range URLs: give it without --file or --url/);
  assert.match(results[3]!.stderr, /--source ecb-hist names a file: give it without --file, --url or --since/);
  const stores = openSqliteStores(path);
  t.after(() => stores.close());
  assert.equal(await stores.rates.version(), 0);
});

test('when ingest --help is asked, then it lists every source of the registry and every named file', async () => {
  const help = await runCli(['ingest', '--help'], serviceEnv('/nonexistent/never-opened.db'));
  assert.equal(help.code, 0, describeRun(help));
  assert.ok(help.stdout.includes(`--source ID     a rate source: ${SOURCE_IDS.join(', ')} (default: ecb)`), help.stdout);
  assert.ok(help.stdout.includes(`a source's file by name, alone: ${FEED_NAMES.join(', ')}`), help.stdout);
});

test('when --source names no source, or is given both --file and --url, then it is a usage error naming the sources', async (t) => {
  const { env } = database(t);
  const runs = [
    ['ingest', '--source', 'nbp-a'],
    ['ingest', '--source', 'nbp', '--file', fixture('daily.xml'), '--url', 'https://example.invalid/x.json'],
  ];
  const results = await Promise.all(runs.map((args) => runCli(args, env)));
  results.forEach((result, i) => assert.equal(result.code, 2, `${runs[i]!.join(' ')}: ${describeRun(result)}`));
  // Every registered source (registry.test.ts holds the list), then the ECB's feeds.
  assert.ok(results[0]!.stderr.includes(`--source must be one of ${SOURCE_IDS.join(', ')}, ecb-daily, ecb-90d, ecb-hist`), results[0]!.stderr);
  assert.match(results[1]!.stderr, /give only one of --file and --url/);
});
