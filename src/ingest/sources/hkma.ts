import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { eachDay } from './day-range.js';
import { arrayValue, isObject, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import { publishedFigure } from './published-figure.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const DAILY = 'https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily';

/** Records per page: the API's page the recording asked for. */
const PAGE = 100;

/** A currency's key: its ISO code in lower case ("usd"); the SDR has its own name. */
const CURRENCY_KEY = /^[a-z]{3}$/;
const SDR_KEY = 'special_drawing_rights';

/**
 * Decimals HKMA publishes its rates to at most (the SDR's 10.75757525; 7.8245 HKD per USD). Its
 * JSON numbers are binary doubles as written, 7.8245000000000005 for 7.8245.
 */
const PUBLISHED_PLACES = 8;

/** The effective exchange rate indices of the same rows ("neeri_2020_trade_wgt"): not currencies. */
const INDEX_KEY = /^neeri_\d{4}_(trade|import|export)_wgt$/;

/**
 * Hong Kong Monetary Authority, daily exchange rates (JSON `{header, result: {records:
 * [{end_of_day, usd, gbp, …}]}}`): HKD per 1 unit at the end of the day, the published figure
 * recovered exactly from the API's binary-double rendering.
 * Keys are lower-case codes; a null is no value (the legacy DEM, NLG, BEF, FRF and ITL are null
 * on every recent day). The NEER indices in the same rows are left out.
 */
export const hkma: SourceAdapter = {
  id: 'hkma',
  name: 'Hong Kong Monetary Authority',
  base: 'HKD',
  terms: 'base-per-unit',
  country: 'HK',
  rateType: 'end of day',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: 'AUD CAD CHF CNY EUR GBP HKD IDR INR JPY KRW MYR PHP SGD THB TWD USD XDR ZAR'.split(' '),
  homepage: 'https://www.hkma.gov.hk/eng/data-publications-and-research/data-and-statistics/daily-monetary-statistics/',
  schedule: {
    localTime: '18:00',
    timeZone: 'Asia/Hong_Kong',
    weekdays: [1, 2, 3, 4, 5],
    note: 'end-of-day rates of each Hong Kong business day (a Saturday may carry rates too)',
  },
  // A range of up to 100 days is one page; a longer one is fetched page by page.
  urls: (range?: DayRange) => {
    const query = 'choose=end_of_day&sortby=end_of_day&sortorder=desc';
    if (!range) return [`${DAILY}?${query}&offset=0&pagesize=7`];
    const days = eachDay(range).length;
    const urls: string[] = [];
    for (let offset = 0; offset < days; offset += PAGE) {
      urls.push(`${DAILY}?choose=end_of_day&from=${range.from}&offset=${offset}&pagesize=${PAGE}&sortby=end_of_day&sortorder=desc&to=${range.to}`);
    }
    return urls;
  },
  parse: async (bytes, origin) => parseHkma(bytes, origin),
};

function parseHkma(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const header = objectValue(document['header'], () => `${origin}: "header"`);
  if (header['success'] !== true) {
    const message = typeof header['err_msg'] === 'string' ? header['err_msg'] : '';
    throw new IngestFormatError(`${origin}: the API answered without success: ${showValue(message)}`);
  }
  const records = arrayValue(objectValue(document['result'], () => `${origin}: "result"`)['records'], () => `${origin}: "records"`);
  const collector = new DayCollector(origin, hkma.base);
  const seen = new Set<string>();
  records.forEach((entry, i) => {
    const at = () => `${origin}: record #${i + 1}`;
    const record = objectValue(entry, at);
    const date = stringValue(record['end_of_day'], () => `${at()} "end_of_day"`);
    collector.day(date, `record #${i + 1}`);
    if (seen.has(date)) throw new IngestFormatError(`${origin}: the record of ${date} appears twice`);
    seen.add(date);
    for (const [key, value] of Object.entries(record)) {
      if (key === 'end_of_day' || INDEX_KEY.test(key) || value === null) continue;
      if (key !== SDR_KEY && !CURRENCY_KEY.test(key)) throw new IngestFormatError(`${origin}: ${date}: unknown key ${showValue(key)}`);
      const code = key === SDR_KEY ? 'XDR' : key.toUpperCase();
      if (isObject(value)) throw new IngestFormatError(`${origin}: ${date} currency=${code}: expected a number, got an object`);
      const where = () => `${origin}: ${date} currency=${code}`;
      collector.add(date, code, publishedFigure(numberText(value, where), PUBLISHED_PLACES, 'HKMA', where), '1');
    }
  });
  return collector.result();
}
