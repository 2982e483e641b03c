import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeRun, fixture, parseIngestSummary, runCli, serviceEnv, type CliResult } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { tempDir } from '../helpers/test-server.js';
import { buildZip } from '../helpers/zip-writer.js';

/**
 * Files built to attack the reader rather than to carry rates: an XML DOCTYPE (entity expansion,
 * external entities) is refused before the XML is parsed, and a ZIP member's name is shown in
 * error messages with its control characters escaped, so it cannot drive the terminal or forge
 * log lines. Either way the run exits non-zero and writes nothing.
 */

async function database(t: TestContext) {
  const dir = tempDir(t, 'currency-rates-hostile-');
  const path = join(dir, 'rates.db');
  const env = serviceEnv(path);
  const first = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(first.code, 0, describeRun(first));
  return { dir, path, env };
}

function expectRefused(result: CliResult, message: string, what: string): void {
  assert.ok(!result.timedOut, `${what}: ${describeRun(result)}`);
  assert.equal(result.code, 1, `${what} exits 1: ${describeRun(result)}`);
  assert.equal(result.stderr, `currency-rates ingest: ${message}\n`, what);
  assert.equal(parseIngestSummary(result.stdout), undefined, `${what}: no summary is printed`);
}

/**
 * Marks every member name of a buildZip archive as UTF-8 (general purpose flag bit 11), as
 * archivers do for non-ASCII names; without it a reader decodes names as CP437, where control
 * bytes are drawn as symbols.
 */
function withUtf8Names(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  const end = out.length - 22;
  assert.equal(out.readUInt32LE(end), 0x06054b50, 'an end record without a comment');
  let at = out.readUInt32LE(end + 16);
  for (let i = 0; i < out.readUInt16LE(end + 10); i++) {
    assert.equal(out.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    out.writeUInt16LE(out.readUInt16LE(at + 8) | 0x0800, at + 8);
    const local = out.readUInt32LE(at + 42);
    assert.equal(out.readUInt32LE(local), 0x04034b50, 'a local header');
    out.writeUInt16LE(out.readUInt16LE(local + 6) | 0x0800, local + 6);
    at += 46 + out.readUInt16LE(at + 28) + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
  }
  return out;
}

const DAILY = readFileSync(fixture('daily.xml'), 'utf8');
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

test('when an XML file holds a DOCTYPE — plain, with entities, with an external entity, lower-case, or after a comment — then ingest exits 1 saying so and writes nothing', async (t) => {
  const { dir, path, env } = await database(t);
  assert.ok(DAILY.startsWith(DECLARATION), 'daily.xml opens with its declaration');
  const body = DAILY.slice(DECLARATION.length);
  const withRate = (rate: string) => body.replace("rate='1.1415'", `rate='${rate}'`);
  const cases: [name: string, text: string, line: number][] = [
    ['doctype-plain.xml', `${DECLARATION}<!DOCTYPE gesmes:Envelope>\n${body}`, 2],
    ['doctype-entity.xml', `${DECLARATION}<!DOCTYPE gesmes:Envelope [<!ENTITY usd "1.2">]>\n${withRate('&usd;')}`, 2],
    ['doctype-external.xml', `${DECLARATION}<!DOCTYPE gesmes:Envelope [\n<!ENTITY usd SYSTEM "file:///etc/hostname">\n]>\n${withRate('&usd;')}`, 2],
    ['doctype-lower-case.xml', `${DECLARATION}\n<!doctype gesmes:Envelope>\n${body}`, 3],
    ['doctype-after-comment.xml', `${DECLARATION}<!-- ECB -->\n\n\n<!DOCTYPE gesmes:Envelope>${body}`, 5],
  ];
  const before = dumpDatabase(path);
  for (const [name, text, line] of cases) {
    const file = join(dir, name);
    writeFileSync(file, text);
    expectRefused(
      await runCli(['ingest', '--file', file], env),
      `${file}: line ${line} holds a DOCTYPE declaration; ECB files have none, refusing the file`,
      name,
    );
  }
  assert.equal(dumpDatabase(path), before, 'nothing is written');

  // The same file without the DOCTYPE is fine.
  const plain = join(dir, 'no-doctype.xml');
  writeFileSync(plain, `${DECLARATION}${body}`);
  const accepted = await runCli(['ingest', '--file', plain], env);
  assert.equal(accepted.code, 0, describeRun(accepted));
});

test('when a ZIP member\'s name holds a terminal escape and a newline, then the error message shows them escaped, on one line, and nothing is written', async (t) => {
  const { dir, path, env } = await database(t);
  const badCsv = readFileSync(fixture('short-row.csv'));
  const goodCsv = readFileSync(fixture('hist.csv'));
  const name = 'rates\u001b[31m\nERROR forged line\u009b2J\u202e.csv';
  const shown = 'rates\\u001b[31m\\nERROR forged line\\u009b2J\\u202e.csv';
  const cases: [file: string, zip: Buffer, message: (file: string) => string][] = [
    [
      'bad-row-in-member.zip',
      buildZip([{ name, data: badCsv }]),
      (file) => `${file}:${shown} line 3: the row has 3 fields, fewer than the header's 4`,
    ],
    [
      'two-members.zip',
      buildZip([{ name: 'hist.csv', data: goodCsv }, { name, data: goodCsv }]),
      (file) => `${file}: the ZIP holds more than one file (hist.csv, ${shown}), expected exactly one`,
    ],
    [
      'bad-crc.zip',
      buildZip([{ name, data: goodCsv, stored: true, crc: 0x12345678 }]),
      (file) => `${file}:${shown}: CRC-32 mismatch, the ZIP is corrupt`,
    ],
    [
      'absolute-name.zip',
      buildZip([{ name: `/${name}`, data: goodCsv }]),
      (file) => `${file}: not a readable ZIP file: absolute path: /${shown}`,
    ],
  ];
  const before = dumpDatabase(path);
  for (const [fileName, zip, message] of cases) {
    const file = join(dir, fileName);
    writeFileSync(file, withUtf8Names(zip));
    const result = await runCli(['ingest', '--file', file], env);
    assert.ok(!result.stderr.includes('\u001b') && !result.stderr.includes('\u009b'), `${fileName}: no raw escape reaches the terminal: ${JSON.stringify(result.stderr)}`);
    assert.equal(result.stderr.split('\n').length, 2, `${fileName}: the message is one line: ${JSON.stringify(result.stderr)}`);
    expectRefused(result, message(file), fileName);
  }
  assert.equal(dumpDatabase(path), before, 'nothing is written');
});
