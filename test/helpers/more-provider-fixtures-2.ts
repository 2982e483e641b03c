import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceAdapter, SourceDay } from '../../src/ingest/sources/source-adapter.js';
import { PROVIDER_FIXTURES } from './provider-fixtures.js';

/**
 * More banks' recorded responses, byte for byte, one folder per bank
 * (test/fixtures/providers/more/README-2.md names each file's origin).
 */
export const MORE_FIXTURES_2 = join(PROVIDER_FIXTURES, 'more');

export const MORE_FILES_2 = {
  sarb: {
    usd: 'sarb/sarb-EXCX135D-USD-2026-03-24_2026-03-27.json',
    gbp: 'sarb/sarb-EXCZ001D-GBP-2026-03-24_2026-03-27.json',
    eur: 'sarb/sarb-EXCZ002D-EUR-2026-03-24_2026-03-27.json',
    kes: 'sarb/sarb-EXCB059D-KES-2026-03-24_2026-03-27.json',
    jpy: 'sarb/sarb-EXCB120D-JPY-2026-03-24_2026-03-27.json',
    /** Every recorded series, one file each. */
    all: readdirSync(join(MORE_FIXTURES_2, 'sarb')).sort().map((name) => `sarb/${name}`),
  },
  cbu: {
    apr1: 'cbu/cbu-all-2026-04-01.json',
    apr2: 'cbu/cbu-all-2026-04-02.json',
    apr3: 'cbu/cbu-all-2026-04-03.json',
  },
  bna: {
    all: 'bna/bna-taxa-ref-ALL-2026-05-18_2026-05-21.json',
    aed: 'bna/bna-taxa-ref-AED-2026-05-18_2026-05-21.json',
    eur: 'bna/bna-taxa-ref-EUR-2026-05-18_2026-05-21.json',
    sdg: 'bna/bna-taxa-ref-SDG-2026-05-18_2026-05-21.json',
  },
  bcra: {
    mar19: 'bcra/bcra-cotizaciones-2026-03-19.json',
    mar20: 'bcra/bcra-cotizaciones-2026-03-20.json',
  },
  bom: 'bom/bom-currency-rate-movement-2026-05-19_2026-05-22.json',
  nbm: {
    rates: ['nbm/nbm-official-rates-2026-04-06.xml', 'nbm/nbm-official-rates-2026-04-07.xml', 'nbm/nbm-official-rates-2026-04-08.xml'],
    metals: ['nbm/nbm-metal-rates-2026-04-06.xml', 'nbm/nbm-metal-rates-2026-04-07.xml', 'nbm/nbm-metal-rates-2026-04-08.xml'],
  },
  sbi: {
    group9: 'sbi/sbi-group9-2026-03-24_2026-03-27.xml',
    group7: 'sbi/sbi-group7-2026-03-24_2026-03-27.xml',
  },
  nbe: [
    'nbe/nbe-filter-exchange-rates-2026-05-18.json',
    'nbe/nbe-filter-exchange-rates-2026-05-19.json',
    'nbe/nbe-filter-exchange-rates-2026-05-20.json',
  ],
  hnb: {
    eur: 'hnb/hnb-tecajn-eur-v3-2023-01-02_2023-01-06.json',
    hrk: 'hnb/hnb-tecajn-hrk-v2-2022-12-31.json',
  },
  cba: {
    latest: 'cba/cba-latest-2026-03-18.xml',
    range: 'cba/cba-range-by-iso-2026-03-02_2026-03-18.xml',
  },
  nbt: ['nbt/nbt-kurs-2026-05-18.xml', 'nbt/nbt-kurs-2026-05-19.xml', 'nbt/nbt-kurs-2026-05-20.xml'],
  /** One answer per currency, named by its ISO code (the bank's own labels for USD and EUR are not). */
  bcu: Object.fromEntries(
    ['ARS', 'BRL', 'CAD', 'CHF', 'CLP', 'CNY', 'COP', 'DKK', 'EUR', 'GBP', 'HKD', 'HUF', 'INR', 'ISK', 'JPY', 'KRW', 'MXN', 'MYR', 'NOK', 'NZD', 'PEN', 'PYG', 'RUB', 'SEK', 'TRY', 'USD', 'ZAR']
      .map((code) => [code, `bcu/bcu-cotizaciones-${code}-2026-03-27_2026-03-31.xml`]),
  ) as Readonly<Record<string, string>>,
  nbkr: {
    daily: 'nbkr/nbkr-daily-2026-05-24.xml',
    weekly: 'nbkr/nbkr-weekly-2026-05-23.xml',
    historicalUsd: 'nbkr/nbkr-historical-USD-2005-06-04_2005-06-25.html',
    historicalEur: 'nbkr/nbkr-historical-EUR-2005-06-04_2005-06-25.html',
  },
  bnm: {
    latest: 'bnm/bnm-latest-0900-2026-03-19.json',
    /** March 2026 of each currency, by the bank's label ("SDR" for XDR). */
    months: Object.fromEntries(
      ['AED', 'AUD', 'BND', 'CAD', 'CHF', 'CNY', 'EGP', 'EUR', 'GBP', 'HKD', 'IDR', 'INR', 'JPY', 'KHR', 'KRW', 'MMK', 'NPR', 'NZD', 'PHP', 'PKR', 'SAR', 'SDR', 'SGD', 'THB', 'TWD', 'USD', 'VND']
        .map((label) => [label, `bnm/bnm-${label}-2026-03-0900.json`]),
    ) as Readonly<Record<string, string>>,
  },
} as const;

export function moreBytes(name: string): Buffer {
  return readFileSync(join(MORE_FIXTURES_2, name));
}

export function moreText(name: string): string {
  return moreBytes(name).toString('utf8');
}

/** Each file parsed by `adapter`, in the order given. */
export async function parseAll(adapter: SourceAdapter, names: readonly string[]): Promise<SourceDay[][]> {
  return Promise.all(names.map((name) => adapter.parse(moreBytes(name), name)));
}

/**
 * The adapter's `codes` are exactly its base and the codes the recorded files give values for
 * (the tracked set with this source enabled, DECISIONS §9), EUR among them.
 */
export async function assertCodesAreRecorded(adapter: SourceAdapter, names: readonly string[]): Promise<void> {
  const codes = new Set([adapter.base]);
  for (const days of await parseAll(adapter, names)) for (const day of days) for (const code of day.values.keys()) codes.add(code);
  assert.deepEqual([...adapter.codes].sort(), [...codes].sort(), `${adapter.id}: codes are those of its recorded files`);
  assert.ok(adapter.codes.includes('EUR'), `${adapter.id} quotes EUR`);
}
