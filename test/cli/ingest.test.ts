import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv, type CliResult, type IngestSummary } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { apiGet, freePort, pollUntil, spawnServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/** DECISIONS §6: all-or-nothing runs, idempotent re-runs, value-by-value merges, corrections. */

async function database(t: TestContext, ...files: string[]) {
  const path = join(tempDir(t, 'currency-rates-ingest-'), 'rates.db');
  const env = serviceEnv(path);
  for (const file of files) expectSummary(await runCli(['ingest', '--file', fixture(file)], env));
  return { path, env };
}

function expectSummary(result: CliResult, expected?: Partial<IngestSummary>, what = ''): IngestSummary {
  assert.equal(result.code, 0, `${what} ${describeRun(result)}`);
  const summary = parseIngestSummary(result.stdout);
  assert.ok(summary, `${what}: one summary line with days, rates, new and changed:\n${result.stdout}`);
  if (expected) assert.deepEqual(summary, { ...summary, ...expected }, `${what}: ${result.stdout}`);
  return summary;
}

function expectFailure(result: CliResult, names: string, where: RegExp[], what: string): void {
  assert.ok(!result.timedOut, `${what}: ${describeRun(result)}`);
  assert.ok(result.code !== 0 && result.code !== null, `${what} exits non-zero: ${describeRun(result)}`);
  assert.ok(result.stderr.includes(names), `${what}: the message names ${names}: ${result.stderr}`);
  for (const pattern of where) assert.match(result.stderr, pattern, `${what}: the message says where`);
  assert.equal(parseIngestSummary(result.stdout), undefined, `${what}: no summary is printed`);
}

test('when each ECB format is ingested with --file, then one summary line is printed; when the same file is ingested again, then 0 new and 0 changed', async (t) => {
  const cases: [string, IngestSummary][] = [
    ['daily.xml', { days: 1, rates: 6, added: 6, changed: 0 }],
    ['hist-90d.xml', { days: 3, rates: 18, added: 18, changed: 0 }],
    ['hist.csv', { days: 4, rates: 22, added: 22, changed: 0 }],
    ['daily.csv', { days: 1, rates: 5, added: 5, changed: 0 }],
    ['hist.zip', { days: 4, rates: 22, added: 22, changed: 0 }],
  ];
  await Promise.all(
    cases.map(async ([file, first]) => {
      const { env } = await database(t);
      expectSummary(await runCli(['ingest', '--file', fixture(file)], env), first, `${file} first run`);
      expectSummary(await runCli(['ingest', '--file', fixture(file)], env), { ...first, added: 0, changed: 0 }, `${file} again`);
    }),
  );
});

test('when a file omits a stored currency or corrects a value, then only the corrected value changes and the server serves it within 5 s', async (t) => {
  const { path, env } = await database(t, 'hist.csv', 'daily.xml');
  const key = (await runCli(['keys', 'create', '--name', 'ingest-test'], env)).stdout.trim().split('\n').pop() ?? '';
  const server = await spawnServer(t, env);
  const day = async (date: string) => (await apiGet(server.url, `/api/v1/rates/${date}?symbols=USD,GBP,JPY`, key)).json;
  const april = { base: 'EUR', date: '2026-04-13', rates: { GBP: '0.870580', JPY: '186.750000', USD: '1.168400' } };
  const july = { base: 'EUR', date: '2026-07-06', rates: { GBP: '0.855380', JPY: '185.310000', USD: '1.141500' } };
  assert.deepEqual(await day('2026-04-13'), april);
  assert.deepEqual(await day('2026-07-06'), july);

  const before = dumpDatabase(path);
  // omit-gbp.xml lists 2026-07-06 without GBP; omit-gbp.csv has GBP N/A on 2026-04-13.
  expectSummary(await runCli(['ingest', '--file', fixture('omit-gbp.xml')], env), { days: 1, rates: 2, added: 0, changed: 0 }, 'omit-gbp.xml');
  expectSummary(await runCli(['ingest', '--file', fixture('omit-gbp.csv')], env), { days: 1, rates: 2, added: 0, changed: 0 }, 'omit-gbp.csv');
  assert.equal(dumpDatabase(path), before, 'files that omit a currency write nothing');

  const corrected = await runCli(['ingest', '--file', fixture('hist-corrected.csv')], env);
  expectSummary(corrected, { days: 4, rates: 22, added: 0, changed: 1 }, 'hist-corrected.csv');
  const seen = await pollUntil(async () => {
    const answer = await day('2026-04-13');
    return JSON.stringify(answer) === JSON.stringify(april) ? undefined : answer;
  }, { timeoutMs: 5000, intervalMs: 100, what: 'the corrected USD rate to be served' });
  t.diagnostic(`correction served after ${Math.round(seen.ms)} ms`);
  assert.deepEqual(seen.value, { ...april, rates: { ...april.rates, USD: '1.169000' } });
  assert.deepEqual(await day('2026-07-06'), july, 'the day the XML omitted GBP from keeps it');
  const convert = await apiGet(server.url, '/api/v1/convert?from=GBP&to=USD&amount=100', key);
  assert.equal((convert.json as { date?: string }).date, '2026-07-06');
});

test('when a file is malformed, unreadable or missing, then ingest exits non-zero naming the file and the place, and writes nothing', async (t) => {
  const { path, env } = await database(t, 'hist.csv');
  const dir = tempDir(t, 'currency-rates-bad-');
  const empty = join(dir, 'empty.csv');
  writeFileSync(empty, '');
  const cases: [file: string, where: RegExp[]][] = [
    [fixture('truncated.xml'), [/line \d+/]],
    [fixture('bad-rate.xml'), [/2026-07-03|line 17\b/, /USD/]],
    [fixture('short-row.csv'), [/line 3\b/]],
    [fixture('duplicate-day.csv'), [/line 4\b/]],
    [fixture('garbage.txt'), []],
    [fixture('bad-member.zip'), [/eurofxref-hist\.csv/, /line 3\b/]],
    [join(dir, 'no-such-file.xml'), []],
    [empty, []],
  ];
  const before = dumpDatabase(path);
  const results = await Promise.all(cases.map(([file]) => runCli(['ingest', '--file', file], env)));
  results.forEach((result, i) => {
    const [file, where] = cases[i]!;
    expectFailure(result, basename(file), where, `ingest --file ${basename(file)}`);
  });
  assert.equal(dumpDatabase(path), before, 'the database is unchanged');
});

test('when --url names a local HTTP server, then a served file is ingested; when it answers 500 or 404, breaks off or cannot be reached, then ingest fails naming it and writes nothing', async (t) => {
  const { path, env } = await database(t, 'hist.csv');
  const http = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1);
    if (name === 'broken') return void response.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
    if (name === 'cut-short.zip') {
      // Promises the whole file, sends part of it, and hangs up.
      const whole = readFileSync(fixture('hist.zip'));
      response.writeHead(200, { 'content-length': whole.length }).write(whole.subarray(0, 100));
      return void setTimeout(() => response.socket?.destroy(), 50);
    }
    if (!['hist-90d.xml', 'hist.zip', 'truncated.xml'].includes(name)) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(fixture(name)));
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  t.after(() => http.close());
  const address = http.address();
  assert.ok(address && typeof address === 'object');
  const base = `http://127.0.0.1:${address.port}`;

  const before = dumpDatabase(path);
  const closedPort = await freePort();
  const failures: [url: string, names: string][] = [
    [`${base}/broken`, '500'],
    [`${base}/eurofxref-daily.xml`, '404'],
    [`${base}/truncated.xml`, 'truncated.xml'],
    [`${base}/cut-short.zip`, `${base}/cut-short.zip: the download broke off after 100 bytes`],
    [`http://127.0.0.1:${closedPort}/eurofxref-daily.xml`, `${closedPort}`],
  ];
  const results = await Promise.all(failures.map(([url]) => runCli(['ingest', '--url', url], env)));
  results.forEach((result, i) => expectFailure(result, failures[i]![1], [], `ingest --url ${failures[i]![0]}`));
  assert.equal(dumpDatabase(path), before, 'failed downloads write nothing');

  // Independent of each other (new days, known days), so they may run at once.
  const [ninety, zip] = await Promise.all([`${base}/hist-90d.xml`, `${base}/hist.zip`].map((url) => runCli(['ingest', '--url', url], env)));
  expectSummary(ninety!, { days: 3, rates: 18, added: 18, changed: 0 }, '--url hist-90d.xml');
  expectSummary(zip!, { days: 4, rates: 22, added: 0, changed: 0 }, '--url hist.zip');
});

test('when --source names an unknown feed or two sources are given, then it is a usage error and nothing is written', async (t) => {
  const { path, env } = await database(t, 'hist.csv');
  const before = dumpDatabase(path);
  const runs = [
    ['ingest', '--source', 'ecb-weekly'],
    ['ingest', '--file', fixture('hist.csv'), '--source', 'ecb-daily'],
    ['ingest', '--source'],
  ];
  const results = await Promise.all(runs.map((args) => runCli(args, env)));
  results.forEach((result, i) => {
    assert.ok(result.code !== 0 && result.code !== null, `${runs[i]!.join(' ')}: ${describeRun(result)}`);
    assert.match(result.stderr, /usage/i, `${runs[i]!.join(' ')} prints usage`);
    assert.match(result.stderr, /--source|ecb-weekly/, `${runs[i]!.join(' ')} names the option`);
  });
  assert.equal(dumpDatabase(path), before);
});
