import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRatesFile } from '../../src/ingest/parse-rates-file.js';
import { IngestFormatError, type ParsedDay } from '../../src/ingest/parsed-day.js';
import { readZipMember } from '../../src/ingest/unzip-single.js';
import { ECB_FIXTURES, historyCsvBytes } from '../helpers/ecb-history-csv.js';
import { buildZip } from '../helpers/zip-writer.js';

const FIXTURES = path.resolve(process.cwd(), 'test/fixtures');

const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));
/** An ECB file from test/fixtures/ecb/, or eurofxref-hist.csv taken out of the ZIP there. */
const ecb = async (name: string): Promise<Buffer> =>
  name === 'eurofxref-hist.csv' ? historyCsvBytes() : readFileSync(path.join(ECB_FIXTURES, name));

async function assertRejectsFormat(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof IngestFormatError, `expected IngestFormatError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

/** Days keyed by date, for comparing files that cover different spans. */
const byDate = (days: ParsedDay[]): Map<string, ParsedDay> => new Map(days.map((d) => [d.date, d]));

describe('parseRatesFile on the fixtures', () => {
  test('when each fixture format is given, then it is detected by content and days come back oldest first', async () => {
    for (const name of ['daily.xml', 'hist-90d.xml', 'hist.csv', 'daily.csv', 'hist.zip']) {
      const days = await parseRatesFile(fixture(name), 'no-extension');
      const dates = days.map((d) => d.date);
      assert.ok(dates.length > 0, name);
      assert.deepEqual(dates, [...dates].sort(), name);
    }
    const hist = await parseRatesFile(fixture('hist.csv'), 'hist.csv');
    assert.deepEqual(hist.map((d) => d.date), ['2022-08-31', '2025-12-31', '2026-04-10', '2026-04-13']);
  });

  test('when hist.zip is given, then it gives exactly the days of hist.csv', async () => {
    assert.deepEqual(await parseRatesFile(fixture('hist.zip'), 'hist.zip'), await parseRatesFile(fixture('hist.csv'), 'hist.csv'));
  });

  test('when the text has a BOM and leading whitespace, then detection still works', async () => {
    const xml = Buffer.concat([Buffer.from('\uFEFF \n\t'), fixture('daily.xml')]);
    assert.equal((await parseRatesFile(xml, 'bom.xml'))[0]?.date, '2026-07-06');
    const csv = Buffer.concat([Buffer.from('\uFEFF\n'), fixture('hist.csv')]);
    assert.equal((await parseRatesFile(csv, 'bom.csv')).length, 4);
  });

  test('when the malformed fixtures are given, then their parser errors come through', async () => {
    await assertRejectsFormat(parseRatesFile(fixture('truncated.xml'), 'truncated.xml'), /^truncated\.xml: XML ends at line 10/);
    await assertRejectsFormat(parseRatesFile(fixture('bad-rate.xml'), 'bad-rate.xml'), /^bad-rate\.xml: Cube time=2026-07-03 currency=USD/);
    await assertRejectsFormat(parseRatesFile(fixture('short-row.csv'), 'short-row.csv'), /^short-row\.csv line 3: .*fewer/);
    await assertRejectsFormat(parseRatesFile(fixture('duplicate-day.csv'), 'duplicate-day.csv'), /^duplicate-day\.csv line 4: /);
  });

  test('when a zipped CSV is malformed, then the error names the zip and its member', async () => {
    const zip = buildZip([{ name: 'short-row.csv', data: fixture('short-row.csv') }]);
    await assertRejectsFormat(parseRatesFile(zip, 'feed.zip'), /^feed\.zip:short-row\.csv line 3: /);
  });
});

describe('parseRatesFile rejects what is not an ECB file', () => {
  test('when the bytes are not valid UTF-8, then it says so', async () => {
    const bytes = Buffer.concat([Buffer.from('Date,USD,\n2026-04-13,1.1'), Buffer.from([0xc3, 0x28]), Buffer.from(',\n')]);
    await assertRejectsFormat(parseRatesFile(bytes, 'latin.csv'), /^latin\.csv: not valid UTF-8/);
  });

  test('when the bytes are random garbage, then it is rejected as no ECB file', async () => {
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    const binary = Buffer.from(Buffer.alloc(4096).map(() => next() & 0xff));
    await assertRejectsFormat(parseRatesFile(binary, 'binary'), /^binary: (not valid UTF-8|the content is not an ECB XML, CSV or ZIP file)/);
    // Printable garbage passes the UTF-8 check, so content detection has to refuse it.
    const printable = Buffer.from(Buffer.alloc(4096).map(() => 0x21 + (next() % 90)));
    printable[0] = 0x78; // 'x': neither '<' nor "Date"
    await assertRejectsFormat(parseRatesFile(printable, 'garbage'), /^garbage: the content is not an ECB XML, CSV or ZIP file$/);
  });

  test('when garbage starts with "<", then the XML error is short and names the source', async () => {
    const garbage = Buffer.from(`<${'x\'#!'.repeat(2000)}`);
    await assert.rejects(parseRatesFile(garbage, 'tag-soup'), (err: unknown) =>
      err instanceof IngestFormatError && /^tag-soup: malformed XML at line 1/.test(err.message) && err.message.length < 300);
  });

  test('when the input is empty or blank, then it says the content is no ECB file', async () => {
    await assertRejectsFormat(parseRatesFile(Buffer.alloc(0), 'empty'), /^empty: the content is not an ECB/);
    await assertRejectsFormat(parseRatesFile(Buffer.from(' \n\n'), 'blank'), /^blank: the content is not an ECB/);
  });

  test('when a ZIP member is itself a ZIP, then it is refused rather than unpacked again', async () => {
    const inner = fixture('hist.zip');
    await assertRejectsFormat(parseRatesFile(buildZip([{ name: 'inner.zip', data: inner }]), 'outer.zip'),
      /^outer\.zip:inner\.zip: (not valid UTF-8|the content is not an ECB)/);
  });
});

describe('readZipMember guards', () => {
  test('when a member inflates beyond maxBytes, then it is rejected while streaming (ZIP bomb)', async () => {
    const bomb = buildZip([{ name: 'bomb.csv', data: Buffer.alloc(10 * 1024 * 1024) }]);
    assert.ok(bomb.length < 64 * 1024, `bomb is ${bomb.length} bytes`);
    await assertRejectsFormat(parseRatesFile(bomb, 'bomb.zip', { maxUncompressedBytes: 1024 * 1024 }),
      /^bomb\.zip:bomb\.csv: inflates to more than 1048576 bytes/);
  });

  test('when a member lies about its size, then it is rejected even though the header looks small', async () => {
    const liar = buildZip([{ name: 'liar.csv', data: Buffer.alloc(10 * 1024 * 1024), size: 100 }]);
    await assertRejectsFormat(readZipMember(liar, 'liar.zip', 1024 * 1024), /^liar\.zip:liar\.csv: /);
  });

  test('when the ZIP holds two files, then it is rejected naming both', async () => {
    const two = buildZip([{ name: 'a.csv', data: Buffer.from('x') }, { name: 'b.csv', data: Buffer.from('y') }]);
    await assertRejectsFormat(readZipMember(two, 'two.zip', 1000), /^two\.zip: the ZIP holds more than one file \(a\.csv, b\.csv\)/);
  });

  test('when the ZIP holds only a directory, then it is rejected as holding no file', async () => {
    const dirOnly = buildZip([{ name: 'data/', data: Buffer.alloc(0), stored: true }]);
    await assertRejectsFormat(readZipMember(dirOnly, 'dir.zip', 1000), /^dir\.zip: the ZIP holds no file/);
  });

  test('when the ZIP holds a directory and one file, then the file is the member', async () => {
    const zip = buildZip([{ name: 'data/', data: Buffer.alloc(0), stored: true }, { name: 'data/r.csv', data: Buffer.from('hello') }]);
    const member = await readZipMember(zip, 'ok.zip', 1000);
    assert.equal(member.name, 'data/r.csv');
    assert.equal(member.data.toString(), 'hello');
  });

  test('when the ZIP is truncated, then it is rejected naming the source', async () => {
    const whole = fixture('hist.zip');
    await assertRejectsFormat(parseRatesFile(whole.subarray(0, whole.length - 30), 'cut.zip'), /^cut\.zip: not a readable ZIP file/);
    await assertRejectsFormat(parseRatesFile(whole.subarray(0, 40), 'stub.zip'), /^stub\.zip: not a readable ZIP file/);
  });

  test('when a stored member is damaged, then the CRC check rejects it', async () => {
    const zip = buildZip([{ name: 'r.csv', data: fixture('hist.csv'), stored: true }]);
    const at = zip.indexOf('1.1684');
    zip[at] = '2'.charCodeAt(0);
    await assertRejectsFormat(parseRatesFile(zip, 'bad.zip'), /^bad\.zip:r\.csv: CRC-32 mismatch/);
  });

  test('when deflated data is damaged, then it is rejected naming the member', async () => {
    const zip = buildZip([{ name: 'r.csv', data: fixture('hist.csv') }]);
    zip.fill(0xff, 40, 60);
    await assertRejectsFormat(parseRatesFile(zip, 'bad.zip'), /^bad\.zip:r\.csv: /);
  });
});

describe('parseRatesFile on the real ECB files', () => {
  const timed = async (t: { diagnostic: (m: string) => void }, name: string): Promise<ParsedDay[]> => {
    const bytes = await ecb(name);
    const started = performance.now();
    const days = await parseRatesFile(bytes, name);
    t.diagnostic(`parseRatesFile(${name}): ${days.length} days in ${(performance.now() - started).toFixed(1)} ms`);
    return days;
  };

  test('when eurofxref-hist.csv is given, then it gives 6,983 days oldest first with 29 currencies on 2026-04-13', async (t) => {
    const days = await timed(t, 'eurofxref-hist.csv');
    assert.equal(days.length, 6983);
    assert.equal(days[0]?.date, '1999-01-04');
    assert.equal(days.at(-1)?.date, '2026-04-13');
    assert.equal(days.at(-1)?.rates.size, 29);
    assert.equal(days.at(-1)?.rates.get('USD'), '1.1684');
  });

  test('when eurofxref-hist.zip is given, then it gives exactly the days and values of the CSV', async (t) => {
    const fromZip = await timed(t, 'eurofxref-hist.zip');
    const fromCsv = await parseRatesFile(await ecb('eurofxref-hist.csv'), 'eurofxref-hist.csv');
    assert.deepEqual(fromZip, fromCsv);
  });

  test('when eurofxref-hist-90d.xml is given, then its 61 days each equal the CSV row for that date', async () => {
    const xmlDays = await parseRatesFile(await ecb('eurofxref-hist-90d.xml'), 'eurofxref-hist-90d.xml');
    const csv = byDate(await parseRatesFile(await ecb('eurofxref-hist.csv'), 'eurofxref-hist.csv'));
    assert.equal(xmlDays.length, 61);
    for (const d of xmlDays) assert.deepEqual(d, csv.get(d.date), d.date);
  });

  test('when eurofxref-daily.xml is given, then it gives 2026-07-06 with 29 currencies', async () => {
    const days = await parseRatesFile(await ecb('eurofxref-daily.xml'), 'eurofxref-daily.xml');
    assert.equal(days.length, 1);
    assert.equal(days[0]?.date, '2026-07-06');
    assert.equal(days[0]?.rates.size, 29);
  });

  test('when eurofxref.csv is given, then it equals the history row for 2026-04-13', async () => {
    const daily = await parseRatesFile(await ecb('eurofxref.csv'), 'eurofxref.csv');
    const csv = byDate(await parseRatesFile(await ecb('eurofxref-hist.csv'), 'eurofxref-hist.csv'));
    assert.deepEqual(daily, [csv.get('2026-04-13')]);
  });
});
