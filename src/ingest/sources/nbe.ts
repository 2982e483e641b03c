import { IngestFormatError } from '../parsed-day.js';
import { DayCollector } from './day-collector.js';
import { eachDay, today } from './day-range.js';
import { arrayValue, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.nbe.gov.et/api/filter-exchange-rates';

/**
 * National Bank of Ethiopia: ETB per 1 unit, the `weighted_average` of the day (buying and
 * selling are not read), as strings. A document is `{success, data: [{date, weighted_average,
 * currency: {code}}]}` for one day; a null or empty average is no value.
 */
export const nbe: SourceAdapter = {
  id: 'nbe',
  name: 'National Bank of Ethiopia',
  base: 'ETB',
  terms: 'base-per-unit',
  country: 'ET',
  rateType: 'weighted average',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: 'AED AUD CAD CHF CNY DJF DKK ETB EUR GBP INR JPY KES KWD NOK SAR SEK USD XDR ZAR'.split(' '),
  homepage: 'https://nbe.gov.et/exchange-rate/',
  schedule: {
    localTime: '10:00',
    timeZone: 'Africa/Addis_Ababa',
    weekdays: [1, 2, 3, 4, 5],
    note: 'indicative buying, selling and weighted average rates of each business day',
  },
  // The API answers one day (date=YYYY-MM-DD): the latest is today's, a range one request a day.
  urls: (range?: DayRange) => {
    return (range ? eachDay(range) : [today()]).map((day) => `${API}?date=${day}`);
  },
  parse: async (bytes, origin) => parseNbe(bytes, origin),
};

function parseNbe(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  if (document['success'] !== true) throw new IngestFormatError(`${origin}: the answer is not marked "success": true`);
  const rows = arrayValue(document['data'], () => `${origin}: "data"`);
  const collector = new DayCollector(origin, nbe.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: row #${i + 1}`;
    const row = objectValue(entry, at);
    const date = stringValue(row['date'], () => `${at()} "date"`);
    collector.day(date, `row #${i + 1}`);
    const currency = objectValue(row['currency'], () => `${origin}: ${date} row #${i + 1} "currency"`);
    const code = stringValue(currency['code'], () => `${origin}: ${date} row #${i + 1} "currency.code"`);
    const average = row['weighted_average'];
    if (average === null || average === '') return; // not published that day: no value
    collector.add(date, code, stringValue(average, () => `${origin}: ${date} currency=${code} "weighted_average"`), '1');
  });
  return collector.result();
}
