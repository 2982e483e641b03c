import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { arrayValue, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.hnb.hr/tecajn-eur/v3';

/** "1,569300": digits, one decimal comma (HNB never writes a point). */
const COMMA_DECIMAL = /^\d+,\d+$/;

/**
 * Hrvatska narodna banka, exchange rate list in euro (API v3, since the euro on 2023-01-01):
 * units of each currency per 1 EUR, like the ECB's (`units-per-base`, stored as written, never
 * inverted), the middle rate `srednji_tecaj` with a decimal comma; `datum_primjene` the day the
 * list applies. The kuna lists of API v2 (HRK per `jedinica` units, to 2022-12-31) have another
 * base and are refused.
 */
export const hnb: SourceAdapter = {
  id: 'hnb',
  name: 'Hrvatska narodna banka',
  base: 'EUR',
  terms: 'units-per-base',
  country: 'HR',
  rateType: 'middle rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: 'AUD BAM CAD CHF CZK DKK EUR GBP HUF JPY NOK PLN SEK USD'.split(' '),
  homepage: 'https://www.hnb.hr/en/core-functions/monetary-policy/exchange-rate-list/exchange-rate-list',
  schedule: {
    localTime: '16:00',
    timeZone: 'Europe/Zagreb',
    weekdays: [1, 2, 3, 4, 5],
    note: 'the exchange rate list is drawn up each business day and applies from the next day',
  },
  urls: (range?: DayRange) => [range ? `${API}?datum-primjene-do=${range.to}&datum-primjene-od=${range.from}` : API],
  parse: async (bytes, origin) => parseHnb(bytes, origin),
};

function parseHnb(bytes: Buffer, origin: string): SourceDay[] {
  const rows = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, hnb.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: row #${i + 1}`;
    const row = objectValue(entry, at);
    if (row['datum_primjene'] === undefined && row['jedinica'] !== undefined) {
      throw new IngestFormatError(`${at()}: a kuna list (API v2, HRK per "jedinica" units), not the list in euro this source reads`);
    }
    const date = stringValue(row['datum_primjene'], () => `${at()} "datum_primjene"`);
    collector.day(date, `row #${i + 1}`);
    const code = stringValue(row['valuta'], () => `${origin}: ${date} row #${i + 1} "valuta"`);
    const where = () => `${origin}: ${date} currency=${code}`;
    const middle = stringValue(row['srednji_tecaj'], () => `${where()} "srednji_tecaj"`);
    if (!COMMA_DECIMAL.test(middle)) throw new IngestFormatError(`${where()}: invalid rate ${showValue(middle)} (HNB writes a decimal comma: 1,569300)`);
    collector.add(date, code, middle.replace(',', '.'), '1');
  });
  return collector.result();
}
