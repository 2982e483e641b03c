import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IngestFormatError } from '../../src/ingest/parsed-day.js';
import type { SourceAdapter, SourceDay } from '../../src/ingest/sources/source-adapter.js';
import { FIXTURE_DIR } from './cli.js';

/** The banks' recorded responses, byte for byte (test/fixtures/README.md names their origin). */
export const PROVIDER_FIXTURES = join(FIXTURE_DIR, 'providers');

export const PROVIDER_FILES = {
  nbpA: 'nbp-table-a-2026-03-01_2026-03-05.json',
  nbpB: 'nbp-table-b-2026-03-01_2026-03-05.json',
  cnb: 'cnb-daily-year-2026.json',
  boc: 'boc-fx-rates-daily-from-2026-03-12.json',
  cbr: 'cbr-xml-daily.xml',
  nbu: 'nbu-exchange-site-2026-03-01_2026-03-16.json',
} as const;

export function providerBytes(name: string): Buffer {
  return readFileSync(join(PROVIDER_FIXTURES, name));
}

export function providerText(name: string): string {
  return providerBytes(name).toString('utf8');
}

/** The values of `date`, failing when the day is missing. */
export function valuesOn(days: readonly SourceDay[], date: string): Map<string, string> {
  const day = days.find((d) => d.date === date);
  assert.ok(day, `a day ${date} among ${days.map((d) => d.date).join(', ')}`);
  return day.values;
}

/** `bytes` refused with an IngestFormatError whose message matches `message`. */
export async function assertRefused(adapter: SourceAdapter, bytes: Buffer | string, message: RegExp): Promise<void> {
  const input = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  await assert.rejects(adapter.parse(input, 'bad.file'), (err: unknown) => {
    assert.ok(err instanceof IngestFormatError, `expected IngestFormatError, got ${String(err)}`);
    assert.match(err.message, message);
    assert.match(err.message, /^bad\.file/, 'the message names the file first');
    return true;
  });
}

/** `text` with its one occurrence of `from` replaced by `to` (a failed match fails the test). */
export function edited(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  assert.ok(at >= 0 && text.indexOf(from, at + 1) < 0, `exactly one ${JSON.stringify(from)} in the fixture`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}
