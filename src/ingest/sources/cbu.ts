import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector, isoFromDotted } from './day-collector.js';
import { eachDay } from './day-range.js';
import { arrayValue, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const JSON_FEED = 'https://cbu.uz/en/arkhiv-kursov-valyut/json';

/**
 * Central Bank of the Republic of Uzbekistan: UZS per `Nominal` units (10 for IDR, IRR, VND) of
 * each currency and XDR, in `Rate`; `Date` DD.MM.YYYY is the day the rate is set for. A document
 * is a JSON array of rows whose every field is a string.
 */
export const cbu: SourceAdapter = {
  id: 'cbu',
  name: 'Central Bank of the Republic of Uzbekistan',
  base: 'UZS',
  terms: 'base-per-unit',
  country: 'UZ',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AFN AMD ARS AUD AZN BDT BGN BHD BND BRL BYN CAD CHF CNY CUP CZK DKK DZD EGP EUR GBP',
    'GEL HKD HUF IDR ILS INR IQD IRR ISK JOD JPY KGS KHR KRW KWD KZT LAK LBP LYD MAD MDL MMK',
    'MNT MXN MYR NOK NZD OMR PHP PKR PLN QAR RON RSD RUB SAR SDG SEK SGD SYP THB TJS TMT TND',
    'TRY UAH USD UYU UZS VES VND XDR YER ZAR',
  ].join(' ').split(' '),
  homepage: 'https://cbu.uz/en/arkhiv-kursov-valyut/',
  schedule: {
    localTime: '17:00',
    timeZone: 'Asia/Tashkent',
    weekdays: [1, 2, 3, 4, 5],
    note: 'set each business day and in force from the next day',
  },
  // The feed takes one day (…/json/all/YYYY-MM-DD/), not a range: a range is that many requests.
  urls: (range?: DayRange) => {
    if (!range) return [`${JSON_FEED}/`];
    return eachDay(range).map((day) => `${JSON_FEED}/all/${day}/`);
  },
  parse: async (bytes, origin) => parseCbu(bytes, origin),
};

function parseCbu(bytes: Buffer, origin: string): SourceDay[] {
  const rows = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, cbu.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: row #${i + 1}`;
    const row = objectValue(entry, at);
    const dotted = stringValue(row['Date'], () => `${at()} "Date"`);
    const date = isoFromDotted(dotted);
    if (date === undefined) throw new IngestFormatError(`${at()}: invalid Date ${showValue(dotted)} (expected DD.MM.YYYY)`);
    const code = stringValue(row['Ccy'], () => `${origin}: ${date} row #${i + 1} "Ccy"`);
    const where = () => `${origin}: ${date} currency=${code}`;
    collector.add(date, code, stringValue(row['Rate'], () => `${where()} "Rate"`), stringValue(row['Nominal'], () => `${where()} "Nominal"`));
  });
  return collector.result();
}
