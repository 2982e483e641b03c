import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.nbp.pl/api/exchangerates/tables';

/** Table A (32 currencies, every business day) and B (~115 more, Wednesdays) are one source. */
const TABLES = ['A', 'B'] as const;

/**
 * Narodowy Bank Polski: average rates, PLN per 1 unit (`mid`; the API has already divided out the
 * nominal). A document is a JSON array of tables, each `{table, no, effectiveDate, rates}`.
 */
export const nbp: SourceAdapter = {
  id: 'nbp',
  name: 'Narodowy Bank Polski',
  base: 'PLN',
  terms: 'base-per-unit',
  country: 'PL',
  rateType: 'average rate',
  cadence: 'daily',
  publishesFrom: '2002-01-02',
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BND BOB BRL BSD BWP BYN BZD CAD',
    'CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD GBP GEL GHS GIP',
    'GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KRW',
    'KWD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN',
    'NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR',
    'SDG SEK SGD SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX',
    'USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF YER ZAR ZMW ZWG',
  ].join(' ').split(' '),
  homepage: 'https://api.nbp.pl/en.html',
  schedule: {
    localTime: '12:15',
    timeZone: 'Europe/Warsaw',
    weekdays: [1, 2, 3, 4, 5],
    note: 'table A every business day between 11:45 and 12:15; table B on Wednesdays in the same window',
  },
  // "A single enquiry cannot cover a period longer than 93 days" (its manual).
  maxRangeDays: 93,
  urls: (range?: DayRange) =>
    TABLES.map((table) => (range ? `${API}/${table}/${range.from}/${range.to}/?format=json` : `${API}/${table}/?format=json`)),
  // "In the case of lack of data for a correctly determined time interval, 404 Not Found" (its manual).
  emptyRangeStatus: 404,
  parse: async (bytes, origin) => parseNbp(bytes, origin),
};

function parseNbp(bytes: Buffer, origin: string): SourceDay[] {
  const tables = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, nbp.base);
  const seen = new Set<string>();
  tables.forEach((item, i) => {
    const where = () => `${origin}: table #${i + 1}`;
    const table = objectValue(item, where);
    const kind = stringValue(table['table'], () => `${where()} "table"`);
    if (!(TABLES as readonly string[]).includes(kind)) {
      throw new IngestFormatError(`${where()}: table ${showValue(kind)} is not an average-rate table (A or B)`);
    }
    const date = stringValue(table['effectiveDate'], () => `${where()} "effectiveDate"`);
    collector.day(date, `table ${kind} #${i + 1}`);
    const key = `${kind} ${date}`;
    if (seen.has(key)) throw new IngestFormatError(`${origin}: table ${kind} of ${date} appears twice`);
    seen.add(key);
    const rates = arrayValue(table['rates'], () => `${origin}: table ${kind} of ${date} "rates"`);
    if (rates.length === 0) throw new IngestFormatError(`${origin}: table ${kind} of ${date} has no rates`);
    rates.forEach((entry, j) => {
      const at = () => `${origin}: ${date} table ${kind} rate #${j + 1}`;
      const rate = objectValue(entry, at);
      const code = stringValue(rate['code'], () => `${at()} "code"`);
      collector.add(date, code, numberText(rate['mid'], () => `${origin}: ${date} currency=${code} "mid"`), '1');
    });
  });
  return collector.result();
}
