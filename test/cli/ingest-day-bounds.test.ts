import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { edited, PROVIDER_FILES, providerText } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * DECISIONS §14: a document with a day before 1900-01-01, a day more than 7 days after today
 * (UTC) or more than 40,000 days is refused whole, naming the first such day, and nothing is
 * stored: one such day would move "latest" to 9999-12-31 or make every start slow.
 */

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const today = () => isoDay(Date.now());
const daysFromToday = (days: number) => isoDay(Date.now() + days * DAY_MS);

/** An ECB history CSV (newest first, as the ECB writes it) with one row per day. */
function ecbCsv(days: readonly string[]): string {
  return ['Date,USD,JPY,', ...[...days].sort().reverse().map((day) => `${day},1.1684,186.75,`)].join('\n') + '\n';
}

/** A database holding the ECB history fixture and a CNB year, and its dump. */
async function seeded(t: TestContext) {
  const dir = tempDir(t, 'currency-rates-bounds-');
  const env = serviceEnv(join(dir, 'rates.db'));
  for (const args of [['ingest', '--file', fixture('hist.csv')], ['ingest', '--source', 'cnb', '--file', fixture(`providers/${PROVIDER_FILES.cnb}`)]]) {
    const run = await runCli(args, env);
    assert.equal(run.code, 0, describeRun(run));
  }
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return { env, write, dump: () => dumpDatabase(join(dir, 'rates.db')) };
}

test('when an ECB file holds a day more than 7 days ahead, before 1900, or more than 40,000 days, then ingest refuses it naming the day and stores nothing', async (t) => {
  const db = await seeded(t);
  const before = db.dump();
  const late = daysFromToday(8);
  const cases: [string, string, RegExp][] = [
    ['late.csv', ecbCsv(['2026-04-14', late, daysFromToday(400)]), new RegExp(`late\\.csv: day ${late} is more than 7 days after today \\(${today()}, UTC\\)`)],
    ['early.csv', ecbCsv(['0001-01-01', '1899-12-29', '2026-04-14']), /early\.csv: day 0001-01-01 is before 1900-01-01/],
    ['huge.csv', ecbCsv(Array.from({ length: 40_001 }, (_, i) => isoDay(Date.parse('1900-01-01') + i * DAY_MS))), /huge\.csv: holds 40001 days, more than the 40000 a document may hold/],
  ];
  for (const [name, text, message] of cases) {
    const run = await runCli(['ingest', '--file', db.write(name, text)], db.env);
    assert.notEqual(run.code, 0, `${name}: ${describeRun(run)}`);
    assert.match(run.stderr, message, name);
    assert.equal(db.dump(), before, `${name}: nothing stored`);
  }
});

test('when a bank document holds a day before 1900, then it is refused like an ECB file; a document at both bounds is taken', async (t) => {
  const db = await seeded(t);
  const before = db.dump();
  const text = providerText(PROVIDER_FILES.cnb);
  const huf = '"currencyCode":"HUF","amount":100,"validFor":"2026-01-02"';
  const run = await runCli(['ingest', '--source', 'cnb', '--file', db.write('cnb-1899.json', edited(text, huf, huf.replace('2026-01-02', '1899-12-29')))], db.env);
  assert.notEqual(run.code, 0, describeRun(run));
  assert.match(run.stderr, /cnb-1899\.json: day 1899-12-29 is before 1900-01-01/);
  assert.equal(db.dump(), before, 'nothing stored');

  // The bounds themselves are accepted: 1900-01-01 and exactly 7 days ahead, 40,000 days in all.
  const edge = Array.from({ length: 39_999 }, (_, i) => isoDay(Date.parse('1900-01-01') + i * DAY_MS));
  const taken = await runCli(['ingest', '--file', db.write('edge.csv', ecbCsv([...edge, daysFromToday(7)]))], db.env);
  assert.equal(taken.code, 0, describeRun(taken));
  assert.match(taken.stdout, new RegExp(`40000 days \\(1900-01-01 \\.\\. ${daysFromToday(7)}\\)`));
});
