import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { IngestFormatError, type ParsedDay } from '../../src/ingest/parsed-day.js';
import { parseRatesFile } from '../../src/ingest/parse-rates-file.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { openStores } from '../../src/storage/open-stores.js';
import type { OpenedStores } from '../../src/storage/ports.js';
import { describeRun, runCli, serviceEnv } from '../helpers/cli.js';
import { dumpDatabase } from '../helpers/db-dump.js';
import { parseDecimal } from '../helpers/oracle.js';
import { ECB_FIXTURES, historyCsvBytes, historyCsvPath, HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { FIXTURES, tempDir } from '../helpers/test-server.js';
import { buildZip, deflateZeros } from '../helpers/zip-writer.js';
import { assertProperty, fcParams } from './fc-settings.js';

/**
 * Fuzzing of the ingestion: mutated, truncated, mis-encoded, oversized and malicious
 * XML, CSV and ZIP files, built from the fixtures and the real ECB files. Whatever comes in, an
 * ingestion either lands a plausible result or fails with an IngestFormatError naming the file —
 * and then the store is byte-for-byte what it was — in bounded time and memory.
 */

const SMALL_INPUTS = [
  ...['hist.csv', 'daily.csv', 'daily.xml', 'hist-90d.xml', 'hist.zip', 'legacy.csv'].map((f) => FIXTURES + f),
  ...['eurofxref.csv', 'eurofxref-daily.xml', 'eurofxref-daily.2025-11-10.xml', 'eurofxref-hist-90d.xml'].map((f) => ECB_FIXTURES + f),
];

/** A store holding hist.csv, and a way to ingest into it and check it is untouched after a failure. */
async function storeWithData(t: TestContext) {
  const dir = tempDir(t, 'currency-rates-fuzz-');
  const dbPath = join(dir, 'rates.db');
  const stores: OpenedStores = await openStores({ databaseUrl: `sqlite:${dbPath}` });
  t.after(() => stores.close());
  await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
  let baseline = dumpDatabase(dbPath);
  let n = 0;
  return {
    dir,
    /** Ingests `bytes` as a file; resolves to the parsed-and-stored days or the IngestFormatError. */
    async ingest(bytes: Buffer | string, name = 'input'): Promise<{ ok: true } | { ok: false; error: IngestFormatError }> {
      const file = join(dir, `${name}-${n++}`);
      writeFileSync(file, bytes);
      try {
        await runIngestion(stores.rates, ecb, { file });
        baseline = dumpDatabase(dbPath);
        return { ok: true };
      } catch (err) {
        assert.ok(err instanceof IngestFormatError, `a clear IngestFormatError, not ${(err as Error).name}: ${(err as Error).stack}`);
        assert.ok(err.message.startsWith(file), `the message names the file: ${err.message}`);
        assert.ok(err.message.length < 600, `the message is short (${err.message.length} chars): ${err.message.slice(0, 200)}…`);
        assert.equal(dumpDatabase(dbPath), baseline, `the store is unchanged after: ${err.message}`);
        return { ok: false, error: err };
      }
    },
  };
}

/** What a successful parse must look like, whatever the input. */
function assertPlausible(days: ParsedDay[], what: string): void {
  const dates = days.map((d) => d.date);
  assert.equal(new Set(dates).size, dates.length, `${what}: no day twice`);
  for (const day of days) {
    assert.match(day.date, /^\d{4}-\d{2}-\d{2}$/, what);
    assert.ok(day.rates.size > 0, `${what}: a day has rates`);
    for (const [code, rate] of day.rates) {
      assert.match(code, /^[A-Z]{3}$/, what);
      assert.match(rate, /^(0|[1-9]\d*)(\.\d*[1-9])?$/, `${what}: ${code} ${rate} is a canonical decimal`);
      assert.ok(parseDecimal(rate).num > 0n, `${what}: ${code} ${rate} is positive`);
    }
  }
}

/** (date, currency) → value as an exact rational string, for comparing files written differently. */
function valuesOf(days: ParsedDay[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const day of days) {
    for (const [code, rate] of day.rates) {
      const { num, den } = parseDecimal(rate);
      values.set(`${day.date} ${code}`, `${num}/${den}`);
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Random mutations

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('replace-rate' as const),
    at: fc.nat(),
    value: fc.constantFrom('-1.1', '0', '0.0000', 'abc', '1e3', 'NaN', '', ' 1.1', '1,5', '١٫٥', '9'.repeat(400), '0x1F', '+1.1', '.5', '1.', 'N/A', '∞'),
  }),
  fc.record({ kind: fc.constant('encoding' as const), to: fc.constantFrom('utf16le', 'utf16le-bom', 'utf16be-bom', 'latin1-accent', 'utf8-bom', 'crlf') }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(input: Buffer, m: Mutation): Buffer {
  const at = (n: number) => (input.length === 0 ? 0 : n % input.length);
  switch (m.kind) {
    case 'truncate':
      return input.subarray(0, at(m.at));
    case 'flip': {
      const copy = Buffer.from(input);
      copy[at(m.at)] = m.byte;
      return copy;
    }
    case 'insert':
      return Buffer.concat([input.subarray(0, at(m.at)), Buffer.from(m.bytes), input.subarray(at(m.at))]);
    case 'delete':
      return Buffer.concat([input.subarray(0, at(m.at)), input.subarray(at(m.at) + m.length)]);
    case 'duplicate-line': {
      const lines = input.toString('latin1').split('\n');
      const i = m.at % lines.length;
      lines.splice(i, 0, lines[i]!);
      return Buffer.from(lines.join('\n'), 'latin1');
    }
    case 'replace-rate': {
      const text = input.toString('latin1');
      const rates = [...text.matchAll(/\d+\.\d+/g)];
      if (rates.length === 0) return input;
      const hit = rates[m.at % rates.length]!;
      return Buffer.from(text.slice(0, hit.index) + m.value + text.slice(hit.index! + hit[0].length), 'latin1');
    }
    case 'encoding': {
      const text = input.toString('utf8');
      if (m.to === 'utf16le') return Buffer.from(text, 'utf16le');
      if (m.to === 'utf16le-bom') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      if (m.to === 'utf16be-bom') return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
      if (m.to === 'latin1-accent') return Buffer.from(text.replace('Date', 'Daté').replace('Reference', 'Référence'), 'latin1');
      if (m.to === 'utf8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), input]);
      return Buffer.from(text.replace(/\n/g, '\r\n'), 'utf8');
    }
  }
}

test('when small ECB files are mutated at random (bytes flipped, inserted, deleted, lines repeated, rates replaced, re-encoded), then each ingestion lands plausible data or fails with an IngestFormatError naming the file and leaves the store untouched', async (t) => {
  const store = await storeWithData(t);
  const inputs = SMALL_INPUTS.map((path) => ({ path, bytes: readFileSync(path) }));
  const outcomes = { landed: 0, refused: 0 };
  await assertProperty(
    fc.asyncProperty(fc.constantFrom(...inputs), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (input, mutations) => {
      const bytes = mutations.reduce(mutate, input.bytes);
      const what = `${input.path} after ${JSON.stringify(mutations).slice(0, 300)}`;
      // The parser alone, for the shape of what it accepts...
      let days: ParsedDay[] | undefined;
      try {
        days = await parseRatesFile(bytes, 'x');
      } catch (err) {
        assert.ok(err instanceof IngestFormatError, `${what}: ${(err as Error).stack}`);
      }
      if (days) assertPlausible(days, what);
      // ...and the whole ingestion against the store.
      const outcome = await store.ingest(bytes, 'mutated');
      assert.equal(outcome.ok, days !== undefined, `${what}: the ingestion and the parser agree`);
      outcomes[outcome.ok ? 'landed' : 'refused']++;
    }),
    fcParams(1),
  );
  t.diagnostic(`outcomes: ${JSON.stringify(outcomes)}`);
});

test('when an ECB file is cut short at any byte, then it is refused, or it parses to a subset of the values of the whole file — never to a value the file does not hold', async (t) => {
  const whole = [
    ...SMALL_INPUTS.filter((p) => !p.endsWith('.zip')),
    ECB_FIXTURES + 'eurofxref-hist-90d.2020-12-10.xml',
    await historyCsvPath(),
  ].map((path) => ({ path, bytes: readFileSync(path) }));
  const parsed = new Map<string, Map<string, string>>();
  for (const input of whole) parsed.set(input.path, valuesOf(await parseRatesFile(input.bytes, input.path)));
  let accepted = 0;
  const check = async (input: { path: string; bytes: Buffer }, cut: number) => {
    let days: ParsedDay[];
    try {
      days = await parseRatesFile(input.bytes.subarray(0, cut), 'cut');
    } catch (err) {
      assert.ok(err instanceof IngestFormatError, `${input.path} cut at ${cut}: ${(err as Error).stack}`);
      return;
    }
    accepted++;
    const original = parsed.get(input.path)!;
    for (const [key, value] of valuesOf(days)) {
      assert.equal(value, original.get(key), `${input.path} cut at byte ${cut} of ${input.bytes.length}: ${key} is not the file's value`);
    }
  };
  // Every cut of the small files, and of the last 32 bytes of the large ones (the last value and
  // line ending, where a cut leaves the most complete-looking file)...
  for (const input of whole) {
    const from = input.bytes.length <= 4096 ? 0 : input.bytes.length - (input.bytes.length > 1_000_000 ? 5 : 32);
    for (let cut = from; cut < input.bytes.length; cut++) await check(input, cut);
  }
  // ...and random cuts anywhere.
  await assertProperty(
    fc.asyncProperty(fc.constantFrom(...whole), fc.double({ min: 0, max: 1, noNaN: true }), (input, fraction) =>
      check(input, Math.floor(input.bytes.length * fraction)),
    ),
    fcParams(0.25, 10),
  );
  t.diagnostic(`cuts accepted (each a subset of the whole file): ${accepted}`);
});

test('when the full history CSV and ZIP are mutated, then the outcome is still plausible data or an IngestFormatError', async () => {
  const csv = await historyCsvBytes();
  const zip = readFileSync(HISTORY_ZIP);
  await assertProperty(
    fc.asyncProperty(fc.constantFrom(csv, zip), mutation, async (input, m) => {
      const bytes = mutate(input, m);
      try {
        assertPlausible(await parseRatesFile(bytes, 'big'), JSON.stringify(m).slice(0, 200));
      } catch (err) {
        assert.ok(err instanceof IngestFormatError, `${JSON.stringify(m).slice(0, 200)}: ${(err as Error).stack}`);
      }
    }),
    fcParams(0.05, 8),
  );
});

// ---------------------------------------------------------------------------------------------
// Targeted hostile inputs

const H = 'Date,USD,JPY,\n';

test('when files repeat a day, carry negative, zero or non-numeric rates, or come in another encoding, then each is refused with a message saying why and nothing is written', async (t) => {
  const store = await storeWithData(t);
  const daily = readFileSync(FIXTURES + 'daily.xml', 'utf8');
  const cases: [string, Buffer | string, RegExp][] = [
    ['a CSV day twice', `${H}2026-04-13,1.1,180,\n2026-04-10,1.1,180,\n2026-04-13,1.1,180,\n`, /date 2026-04-13 already appeared on line 2/],
    ['an XML day twice', daily.replace("<Cube time='2026-07-06'>", "<Cube time='2026-07-06'><Cube currency='USD' rate='1.1'/></Cube><Cube time='2026-07-06'>"), /Cube time=2026-07-06 appears twice/],
    ['an XML currency twice in a day', daily.replace("<Cube currency='USD' rate='1.1415'/>", "<Cube currency='USD' rate='1.1415'/><Cube currency='USD' rate='1.2'/>"), /currency=USD appears twice/],
    ['a negative CSV rate', `${H}2026-04-13,-1.1,180,\n`, /invalid rate "-1.1"/],
    ['a zero CSV rate', `${H}2026-04-13,0.000,180,\n`, /rate must be greater than zero/],
    ['a non-numeric CSV rate', `${H}2026-04-13,one,180,\n`, /invalid rate "one"/],
    ['an exponent', `${H}2026-04-13,1e3,180,\n`, /invalid rate "1e3"/],
    ['a negative XML rate', daily.replace("rate='1.1415'", "rate='-1.1415'"), /invalid rate "-1.1415"/],
    ['a zero XML rate', daily.replace("rate='1.1415'", "rate='0'"), /rate must be greater than zero/],
    ['a non-numeric XML rate', daily.replace("rate='1.1415'", "rate='NaN'"), /invalid rate "NaN"/],
    ['a rate of 400 digits', `${H}2026-04-13,${'9'.repeat(400)}.5x,180,\n`, /invalid rate "9{40}…"/],
    ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(FIXTURES + 'hist.csv', 'utf8'), 'utf16le')]), /not valid UTF-8/],
    ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(daily, 'utf16le').swap16()]), /not valid UTF-8/],
    ['UTF-16LE without a BOM', Buffer.from(readFileSync(FIXTURES + 'hist.csv', 'utf8'), 'utf16le'), /not an ECB XML, CSV or ZIP file/],
    ['UTF-16LE XML without a BOM', Buffer.from(daily, 'utf16le'), /malformed XML|not an ECB/],
    ['Latin-1 bytes', Buffer.from(daily.replace('Reference rates', 'Référence rates'), 'latin1'), /not valid UTF-8/],
    ['an XML entity bomb', `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "${'x'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><gesmes:Envelope xmlns:gesmes="g"><Cube><Cube time="2026-01-05"><Cube currency="USD" rate="&d;"/></Cube></Cube></gesmes:Envelope>`, /./],
    // Regression: a cut inside a row's last value used to land the shortened number (JPY 18).
    ['a history CSV cut inside its last value', `${H}2026-04-13,1.1,180,\n2026-04-10,1.1,18`, /line 3: the row does not end with "," as the header does/],
    ['a daily CSV cut inside its last value', readFileSync(FIXTURES + 'daily.csv', 'utf8').slice(0, -5), /line 2: the row does not end with "," as the header does/],
    ['an empty file', '', /not an ECB XML, CSV or ZIP file|empty/],
    ['NUL bytes', Buffer.alloc(4096), /not an ECB XML, CSV or ZIP file/],
  ];
  for (const [what, bytes, message] of cases) {
    const outcome = await store.ingest(bytes, what.replace(/\W+/g, '-'));
    assert.equal(outcome.ok, false, `${what}: refused`);
    if (!outcome.ok) assert.match(outcome.error.message, message, what);
  }
});

test('when ZIPs are malformed — two members, none, a bad checksum, cut short, a ZIP inside the ZIP — then each is refused and nothing is written', async (t) => {
  const store = await storeWithData(t);
  const csv = readFileSync(FIXTURES + 'hist.csv');
  const good = buildZip([{ name: 'hist.csv', data: csv }]);
  assert.deepEqual(await store.ingest(good, 'good-zip'), { ok: true }, 'the writer makes ZIPs the service reads');
  const cases: [string, Buffer, RegExp][] = [
    ['two members', buildZip([{ name: 'a.csv', data: csv }, { name: 'b.csv', data: csv }]), /more than one file/],
    ['only a directory', buildZip([{ name: 'dir/', data: Buffer.alloc(0), stored: true }]), /holds no file/],
    ['no member at all', buildZip([]), /holds no file|not a readable ZIP|not an ECB XML, CSV or ZIP file/],
    ['a wrong CRC (stored)', buildZip([{ name: 'hist.csv', data: csv, stored: true, crc: 0x12345678 }]), /CRC-32 mismatch/],
    ['a wrong CRC (deflated)', buildZip([{ name: 'hist.csv', data: csv, crc: 0x12345678 }]), /CRC-32 mismatch|not a readable ZIP/],
    ['cut short', good.subarray(0, good.length - 30), /not a readable ZIP/],
    ['cut in the data', good.subarray(0, 60), /not a readable ZIP/],
    ['a ZIP inside', buildZip([{ name: 'inner.zip', data: good }]), /not valid UTF-8|not an ECB/],
    ['a traversing name', buildZip([{ name: '../../../etc/passwd', data: Buffer.from('root:x:0:0') }]), /not an ECB|not a readable ZIP|invalid relative path/],
    ['garbage after the signature', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 0xaa)]), /not a readable ZIP/],
  ];
  for (const [what, bytes, message] of cases) {
    const outcome = await store.ingest(bytes, what.replace(/\W+/g, '-'));
    assert.equal(outcome.ok, false, `${what}: refused`);
    if (!outcome.ok) assert.match(outcome.error.message, message, what);
  }
});

/** Resident memory now, after a collection when the runtime exposes one. */
function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

/** Twice the 64 MiB cap on inflated bytes. */
const BOMB_BYTES = 128 * 1024 * 1024;

test('when ZIP bombs arrive (128 MiB of zeros declared honestly, and one declaring 1 KB but inflating to 128 MiB), then they are refused once the inflated bytes pass the cap, with bounded memory', async (t) => {
  const store = await storeWithData(t);
  const bomb = await deflateZeros(BOMB_BYTES);
  t.diagnostic(`bomb: ${bomb.deflated.length} bytes deflated for ${BOMB_BYTES} bytes of zeros`);
  const cases: [string, Buffer, RegExp][] = [
    ['honest sizes', buildZip([{ name: 'eurofxref-hist.csv', deflated: bomb.deflated, size: BOMB_BYTES, crc: bomb.crc }]), /inflates to more than \d+ bytes|not a readable ZIP/],
    ['a lying size', buildZip([{ name: 'eurofxref-hist.csv', deflated: bomb.deflated, size: 1024, crc: bomb.crc }]), /too many bytes|inflates to more than|not a readable ZIP/],
  ];
  for (const [what, bytes, message] of cases) {
    const before = rssMb();
    const started = performance.now();
    const outcome = await store.ingest(bytes, what.replace(/\W+/g, '-'));
    const grown = rssMb() - before;
    t.diagnostic(`${what}: refused in ${Math.round(performance.now() - started)} ms, RSS +${grown.toFixed(0)} MB`);
    assert.equal(outcome.ok, false, `${what}: refused`);
    if (!outcome.ok) assert.match(outcome.error.message, message, what);
    assert.ok(grown < 200, `${what}: RSS grew ${grown.toFixed(0)} MB (bound 200 MB; the cap is 64 MiB)`);
  }
});

/** A CSV of `bytes` bytes written in pieces, never held in memory whole. */
function writeHugeCsv(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, 'Date,USD,\n');
    const row = '2026-04-13,1.1684,\n';
    const block = row.repeat(Math.floor((1024 * 1024) / row.length));
    for (let written = 0; written < bytes; written += block.length) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
}

test('when a 70 MB CSV is ingested, then it is refused by the size limit before being read, in-process and through the CLI, with bounded memory', async (t) => {
  const store = await storeWithData(t);
  const path = join(store.dir, 'huge.csv');
  writeHugeCsv(path, 70 * 1024 * 1024);
  const dbPath = join(store.dir, 'rates.db');
  const before = dumpDatabase(dbPath);

  const rssBefore = rssMb();
  const started = performance.now();
  const stores = await openStores({ databaseUrl: `sqlite:${dbPath}` });
  const error = await runIngestion(stores.rates, ecb, { file: path }).then(() => undefined, (err: unknown) => err as Error);
  await stores.close();
  const grown = rssMb() - rssBefore;
  t.diagnostic(`refused in ${Math.round(performance.now() - started)} ms, RSS +${grown.toFixed(0)} MB`);
  assert.ok(error instanceof IngestFormatError, `an IngestFormatError: ${error?.stack}`);
  assert.match(error.message, /huge\.csv: larger than 67108864 bytes/);
  assert.ok(grown < 40, `RSS grew ${grown.toFixed(0)} MB: the file was read`);
  assert.equal(dumpDatabase(dbPath), before, 'the store is unchanged');

  const cli = await runCli(['ingest', '--file', path], serviceEnv(dbPath));
  assert.equal(cli.code, 1, describeRun(cli));
  assert.match(cli.stderr, /huge\.csv: larger than 67108864 bytes/);
  assert.equal(dumpDatabase(dbPath), before, 'the store is unchanged');
});

test('when the file is an endless device (/dev/zero), then the size limit stops the read', async (t) => {
  const store = await storeWithData(t);
  const stores = await openStores({ databaseUrl: `sqlite:${join(store.dir, 'rates.db')}` });
  t.after(() => stores.close());
  const error = await runIngestion(stores.rates, ecb, { file: '/dev/zero' }).then(() => undefined, (err: unknown) => err as Error);
  assert.ok(error instanceof IngestFormatError, `an IngestFormatError: ${error?.stack}`);
  assert.match(error.message, /\/dev\/zero: larger than 67108864 bytes/);
});
