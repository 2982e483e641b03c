import { DEFAULT_TRACKED } from '../../domain/currencies.js';
import type { SourceAdapter } from './source-adapter.js';

/** The ECB's public files (units per 1 EUR), by the names `ingest --source` and INGEST_ON_EMPTY take. */
export const ECB_FEEDS = {
  'ecb-daily': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
  'ecb-90d': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
  'ecb-hist': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip',
} as const;

/** How far back the 90-day file surely reaches, in calendar days (its newest day may be a few days old). */
const NINETY_DAY_FILE_DAYS = 85;

/**
 * The European Central Bank's reference rates, stored in its own terms: units of each currency per
 * 1 EUR, as published and as the service has always served them. Its parser reads every format
 * the ECB publishes (XML, CSV, history ZIP), told by content.
 */
export const ecb: SourceAdapter = {
  id: 'ecb',
  name: 'European Central Bank',
  base: 'EUR',
  terms: 'units-per-base',
  country: 'EU',
  rateType: 'reference',
  cadence: 'daily',
  publishesFrom: '1999-01-04',
  codes: DEFAULT_TRACKED.filter((code) => code !== 'EUR'),
  homepage: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
  schedule: {
    localTime: '16:00',
    timeZone: 'Europe/Berlin',
    weekdays: [1, 2, 3, 4, 5],
    note: 'published around 16:00 CET on every TARGET business day',
  },
  // The 90-day file covers a range that starts within its span; an older one needs the full history.
  urls: (range) => {
    if (!range) return [ECB_FEEDS['ecb-daily']];
    return [Date.parse(range.from) >= Date.now() - NINETY_DAY_FILE_DAYS * 86_400_000 ? ECB_FEEDS['ecb-90d'] : ECB_FEEDS['ecb-hist']];
  },
  feeds: ECB_FEEDS,
  parse: async (bytes, origin) => {
    // Loaded on first use: the XML and ZIP readers slow a server's start, and a server with rates
    // stored ingests only when its daily schedule comes round.
    const { parseRatesFile } = await import('../parse-rates-file.js');
    return (await parseRatesFile(bytes, origin)).map((day) => ({ date: day.date, values: day.rates }));
  },
};
