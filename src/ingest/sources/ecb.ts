import { DEFAULT_TRACKED } from '../../domain/currencies.js';
import { ECB_URLS } from '../sources.js';
import type { SourceAdapter } from './source-adapter.js';

/**
 * The European Central Bank's reference rates: units of each currency per 1 EUR, the figures the
 * service has always stored (in `rates`) and served. Its parser is the existing ECB reader (XML,
 * CSV, history ZIP, told by content), so ECB behaviour does not change.
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
  // The 90-day file covers any recent range; older ones need the full history.
  urls: (range) => [range ? ECB_URLS['ecb-90d'] : ECB_URLS['ecb-daily']],
  parse: async (bytes, origin) => {
    // Loaded on first use, as run-ingestion does: the XML and ZIP readers slow a server's start.
    const { parseRatesFile } = await import('../parse-rates-file.js');
    return (await parseRatesFile(bytes, origin)).map((day) => ({ date: day.date, values: day.rates }));
  },
};
