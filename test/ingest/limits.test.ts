import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv, type CliResult } from '../helpers/cli.js';
import { read, startTestServer, tempDir, type TestServer } from '../helpers/test-server.js';

/**
 * A rate may have at most 24 digits in all (integer plus fraction digits, as written): a crafted
 * rate of thousands of digits would otherwise be stored and make every conversion on it costly.
 * Ingestion refuses it naming the file, the date and the currency, exits non-zero, and the stored
 * data stays as it was (a run is all-or-nothing).
 */

const V1 = '/api/v1';

/** The CLI's environment, on the test server's own store. */
function cliEnv(server: TestServer): NodeJS.ProcessEnv {
  const { databaseUrl, redisUrl, redisKeyPrefix } = server.storeConfig;
  return serviceEnv('unused.db', {
    DATABASE_URL: databaseUrl,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...(redisKeyPrefix ? { REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
  });
}

function write(t: TestContext, name: string, text: string): string {
  const path = join(tempDir(t, 'currency-rates-limits-'), name);
  writeFileSync(path, text);
  return path;
}

/** What the server answers for the days these tests touch, as text. */
async function snapshot(server: TestServer): Promise<string[]> {
  const paths = [`${V1}/rates/2026-04-13`, `${V1}/rates/2026-04-14`, `${V1}/rates/latest`, `${V1}/convert?from=USD&to=JPY&amount=100`];
  return Promise.all(paths.map(async (path) => {
    const answer = await read(await server.get(path));
    return `${path} ${answer.status} ${answer.text}`;
  }));
}

function expectRefused(result: CliResult, message: string, what: string): void {
  assert.ok(!result.timedOut, `${what}: ${describeRun(result)}`);
  assert.equal(result.code, 1, `${what} exits 1: ${describeRun(result)}`);
  assert.equal(result.stderr, `currency-rates ingest: ${message}\n`, what);
  assert.equal(parseIngestSummary(result.stdout), undefined, `${what}: no summary is printed`);
}

const DIGITS_25 = '1234567890123.456789012345'; // 13 + 12 = 25 digits
const DIGITS_24 = '123456789012.345678901234'; // 12 + 12 = 24 digits

/** hist.csv's 2026-04-13 corrected (USD), a new day 2026-04-14, and JPY on 2026-04-14 given as `jpy`. */
function csvWith(jpy: string): string {
  return 'Date,USD,JPY,GBP,\n' + `2026-04-14,1.17,${jpy},0.871,\n` + '2026-04-13,1.2,186.75,0.87058,\n';
}

/** daily.xml with a second day: 2026-04-13 corrected (USD) and JPY on it given as `jpy`. */
function xmlWith(jpy: string): string {
  return readFileSync(fixture('daily.xml'), 'utf8').replace(
    '\t</Cube>\n</gesmes:Envelope>',
    `\t\t<Cube time='2026-04-13'>\n\t\t\t<Cube currency='USD' rate='1.2'/>\n\t\t\t<Cube currency='JPY' rate='${jpy}'/>\n\t\t</Cube>\n\t</Cube>\n</gesmes:Envelope>`,
  );
}

test('when a CSV or XML file carries a rate of more than 24 digits, then ingest exits 1 naming the file, the date and the currency, and the served data stays as it was', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const env = cliEnv(server);
  const before = await snapshot(server);
  assert.match(before[1]!, / 404 /, 'no 2026-04-14 to start with');

  const csv = write(t, 'long-rate.csv', csvWith(DIGITS_25));
  const xml = write(t, 'long-rate.xml', xmlWith(DIGITS_25));
  const huge = write(t, 'huge-rate.csv', csvWith(`${'9'.repeat(100_000)}.5`));
  const cases: [file: string, message: string][] = [
    [csv, `${csv} line 2, JPY on 2026-04-14: rate "${DIGITS_25}" has 25 digits, more than the 24 a rate may have`],
    [xml, `${xml}: Cube time=2026-04-13 currency=JPY: rate "${DIGITS_25}" has 25 digits, more than the 24 a rate may have`],
    [huge, `${huge} line 2, JPY on 2026-04-14: rate "${'9'.repeat(40)}…" has 100001 digits, more than the 24 a rate may have`],
  ];
  for (const [file, message] of cases) {
    expectRefused(await runCli(['ingest', '--file', file], env), message, `ingest --file ${file}`);
  }

  // The server reloads every 200 ms: anything written would show by now.
  await sleep(1000);
  assert.deepEqual(await snapshot(server), before, 'the served data is unchanged: no new day, no corrected USD');
});

test('when a rate has exactly 24 digits, then it is ingested and served', async (t) => {
  const server = await startTestServer(t, { ingest: ['hist.csv'] });
  const result = await runCli(['ingest', '--file', write(t, 'rate-24-digits.csv', csvWith(DIGITS_24))], cliEnv(server));
  assert.equal(result.code, 0, describeRun(result));
  assert.deepEqual(parseIngestSummary(result.stdout), { days: 2, rates: 6, added: 3, changed: 1 });
  // hist.csv's server reloads every 200 ms.
  let answer = await read(await server.get(`${V1}/rates/2026-04-14?symbols=JPY,USD`));
  for (let i = 0; i < 50 && answer.status !== 200; i++) {
    await sleep(100);
    answer = await read(await server.get(`${V1}/rates/2026-04-14?symbols=JPY,USD`));
  }
  assert.equal(answer.text, `{"base":"EUR","date":"2026-04-14","rates":{"JPY":"123456789012.345679","USD":"1.170000"}}`);
});
