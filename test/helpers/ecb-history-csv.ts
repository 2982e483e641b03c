import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl, { type Entry } from 'yauzl';
import { crossRate, type EcbDay } from './oracle.js';

/**
 * The ECB's own files, byte for byte, in the repository (test/fixtures/ecb/; origin and sha256 in
 * test/fixtures/README.md). Ends with a slash.
 */
import { ECB_FIXTURES } from './fixtures.js';

export { ECB_FIXTURES };
/** The ECB's full history ZIP (1999-01-04 .. 2026-04-13): one member, eurofxref-hist.csv. */
export const HISTORY_ZIP = join(ECB_FIXTURES, 'eurofxref-hist.zip');
/** sha256 of the ZIP's member, the ECB's eurofxref-hist.csv (1,891,690 bytes). */
const HISTORY_CSV_SHA256 = '729e74c341288f4b07251fddcd8e5b604964e7b2d775920e442ba4dcf2e4ce4c';

let extracted: Promise<{ path: string; bytes: Buffer }> | undefined;

/**
 * The ECB history CSV, which the repository holds only inside HISTORY_ZIP: its single member,
 * unzipped with yauzl (not with the service's own unzip code, which some tests compare it with),
 * checked against the member's known sha256, and written once per process to a temp file under
 * its own name (eurofxref-hist.csv), removed when the process exits.
 */
function extractHistoryCsv(): Promise<{ path: string; bytes: Buffer }> {
  extracted ??= readSingleMember(HISTORY_ZIP).then(({ name, data }) => {
    const sha256 = createHash('sha256').update(data).digest('hex');
    if (name !== 'eurofxref-hist.csv' || sha256 !== HISTORY_CSV_SHA256) {
      throw new Error(`${HISTORY_ZIP}: member ${name} (sha256 ${sha256}) is not the ECB history CSV the tests expect`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'currency-rates-ecb-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, name);
    writeFileSync(path, data);
    return { path, bytes: data };
  });
  return extracted;
}

/** Path of a temp file holding eurofxref-hist.csv, for tests that hand a file to the CLI. */
export async function historyCsvPath(): Promise<string> {
  return (await extractHistoryCsv()).path;
}

/** The bytes of eurofxref-hist.csv, a fresh copy on each call (as readFileSync gives). */
export async function historyCsvBytes(): Promise<Buffer> {
  return Buffer.from((await extractHistoryCsv()).bytes);
}

/** The text of eurofxref-hist.csv. */
export async function historyCsvText(): Promise<string> {
  return (await extractHistoryCsv()).bytes.toString('utf8');
}

function readSingleMember(zipPath: string): Promise<{ name: string; data: Buffer }> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false }, (err, zipfile) => {
      if (err) return reject(err);
      const fail = (error: Error) => {
        zipfile.close();
        reject(error);
      };
      const files: Entry[] = [];
      zipfile.on('error', fail);
      zipfile.on('entry', (entry: Entry) => {
        if (!entry.fileName.endsWith('/')) files.push(entry);
        zipfile.readEntry();
      });
      zipfile.once('end', () => {
        const [entry] = files;
        if (entry === undefined || files.length !== 1) return fail(new Error(`${zipPath}: expected one member, found ${files.length}`));
        zipfile.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return fail(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', fail);
          stream.on('end', () => {
            zipfile.close();
            resolve({ name: entry.fileName, data: Buffer.concat(chunks) });
          });
        });
      });
      zipfile.readEntry();
    });
  });
}

/**
 * The ECB history CSV read independently of the service, for expected values computed with the
 * BigInt oracle: `Date,USD,...,` with a trailing comma on every line, `N/A` for no value.
 */
export type History = Map<string, EcbDay>;

export function parseHistoryCsv(text: string): History {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = (lines[0] ?? '').split(',').map((field) => field.trim());
  if (header[0] !== 'Date') throw new Error('history CSV: no Date header');
  const history: History = new Map();
  for (const line of lines.slice(1)) {
    const fields = line.split(',').map((field) => field.trim());
    const day: Record<string, string> = {};
    header.forEach((code, i) => {
      const value = fields[i];
      if (i > 0 && code !== '' && value !== undefined && value !== '' && value !== 'N/A') day[code] = value;
    });
    history.set(fields[0]!, day);
  }
  return history;
}

export function hasRate(day: EcbDay, code: string): boolean {
  return code === 'EUR' || day[code] !== undefined;
}

/** The most recent date on which every one of `codes` has a rate (DECISIONS §3 "latest"). */
export function latestDateWith(history: History, codes: string[]): string | undefined {
  let latest: string | undefined;
  for (const [date, day] of history) {
    if (codes.every((code) => hasRate(day, code)) && (latest === undefined || date > latest)) latest = date;
  }
  return latest;
}

/** Number of values (not N/A) in the file. */
export function countRates(history: History): number {
  let count = 0;
  for (const day of history.values()) count += Object.keys(day).length;
  return count;
}

/**
 * The rate set the service must answer: every tracked code (or each of `symbols`) with a rate
 * that day, the base included, in base units, keys in alphabetical order.
 */
export function expectedRateSet(history: History, date: string, base: string, tracked: string[], symbols?: string[]) {
  const day = history.get(date);
  if (day === undefined) throw new Error(`oracle: no day ${date}`);
  const rates: Record<string, string> = {};
  for (const code of [...new Set(symbols ?? tracked)].sort()) {
    if (hasRate(day, code)) rates[code] = crossRate(day, base, code);
  }
  return { base, date, rates };
}
