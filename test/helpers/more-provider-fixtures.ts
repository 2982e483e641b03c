import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceAdapter, SourceDay } from '../../src/ingest/sources/source-adapter.js';
import { PROVIDER_FIXTURES } from './provider-fixtures.js';

/**
 * More banks' recorded responses, byte for byte (test/fixtures/providers/more/README-1.md names
 * each file's bank and URL), by bank id.
 */
export const MORE_PROVIDER_FILES = {
  bdi: ['bdi-daily-rates-vs-eur-2026-02-09.csv', 'bdi-daily-rates-vs-eur-2026-02-10.csv', 'bdi-daily-rates-vs-eur-2026-02-11.csv'],
  boe: ['boe-xudl-spot-2026-03-17_2026-03-20.csv'],
  rba: ['rba-f11.1-data.csv'],
  nb: ['nb-exr-b-nok-sp-2026-03-16_2026-03-24.csv'],
  rb: ['rb-group130-2026-03-24_2026-03-27.json'],
  dnb: ['dnb-dnvald-kbh-2025-03-03_2026-03-31.csv'],
  bnr: ['bnr-nbrfxrates2026.xml'],
  mnb: ['mnb-exchange-rates-2025-03-24_2025-03-28.xml'],
  bcb: ['AUD', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD'].map((code) => `bcb-ptax-${code}-2026-03-02_2026-03-06.json`),
  nbg: ['nbg-currencies-req-2026-03-02.json', 'nbg-currencies-req-2026-03-03.json'],
  nbk: ['nbk-get-rates-2026-04-01.xml', 'nbk-get-rates-2026-04-02.xml', 'nbk-get-rates-2026-04-03.xml'],
  nbrb: ['nbrb-rates-daily-2026-03-17.json', 'nbrb-dynamics-CZK-2026-03-01_2026-03-17.json'],
  imf: ['imf-rms-sdrcv-2026-03.tsv', 'imf-rms-rep-2026-03.tsv'],
  hkma: ['hkma-er-eeri-daily-2026-02-25_2026-02-28.json'],
} as const satisfies Record<string, readonly string[]>;

export type MoreProviderId = keyof typeof MORE_PROVIDER_FILES;

export function moreProviderPath(id: MoreProviderId, name: string): string {
  return join(PROVIDER_FIXTURES, 'more', id, name);
}

export function moreProviderBytes(id: MoreProviderId, name: string): Buffer {
  return readFileSync(moreProviderPath(id, name));
}

export function moreProviderText(id: MoreProviderId, name: string): string {
  return moreProviderBytes(id, name).toString('utf8');
}

/**
 * The adapter's `codes` are exactly what its recorded days give values for, its base and EUR
 * among them (the tracked set with the source enabled, DECISIONS §9), sorted.
 */
export function assertCodesOf(adapter: SourceAdapter, days: readonly SourceDay[]): void {
  const codes = new Set([adapter.base, 'EUR']);
  for (const day of days) for (const code of day.values.keys()) codes.add(code);
  assert.deepEqual(adapter.codes, [...codes].sort(), `${adapter.id}: codes are those of its recorded files`);
}
