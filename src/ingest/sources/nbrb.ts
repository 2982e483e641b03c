import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { eachDay } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const RATES = 'https://api.nbrb.by/exrates/rates';

/** The day the rates are in force, as the API writes it. */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00$/;

/**
 * National Bank of the Republic of Belarus, official rates (JSON `[{Cur_Abbreviation, Cur_Scale,
 * Cur_OfficialRate, Date, …}]`, the daily list): BYN per `Cur_Scale` units (1 … 100,000), for
 * every calendar day, weekends included. The per-currency "dynamics" answers carry neither code
 * nor scale and are not read.
 */
export const nbrb: SourceAdapter = {
  id: 'nbrb',
  name: 'National Bank of the Republic of Belarus',
  base: 'BYN',
  terms: 'base-per-unit',
  country: 'BY',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AMD AUD BRL BYN CAD CHF CNY CZK DKK EUR GBP INR IRR ISK JPY KGS KWD KZT MDL NOK NZD',
    'PLN RUB SEK SGD TRY UAH USD VND XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.nbrb.by/engl/statistics/rates/ratesdaily.asp',
  schedule: {
    localTime: '12:00',
    timeZone: 'Europe/Minsk',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    note: 'set each business day for the next day (on Fridays for the weekend too); every calendar day has its rates',
  },
  // The daily list takes a day (ondate): a range is one request per day.
  urls: (range?: DayRange) => {
    if (!range) return [`${RATES}?periodicity=0`];
    return eachDay(range).map((day) => `${RATES}?ondate=${day}&periodicity=0`);
  },
  parse: async (bytes, origin) => parseNbrb(bytes, origin),
};

function parseNbrb(bytes: Buffer, origin: string): SourceDay[] {
  const rows = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, nbrb.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: rate #${i + 1}`;
    const row = objectValue(entry, at);
    const stamp = stringValue(row['Date'], () => `${at()} "Date"`);
    const date = MIDNIGHT.exec(stamp)?.[1];
    if (date === undefined) throw new IngestFormatError(`${at()}: invalid Date ${showValue(stamp)} (expected YYYY-MM-DDT00:00:00)`);
    collector.day(date, `rate #${i + 1}`);
    const code = stringValue(row['Cur_Abbreviation'], () => `${origin}: ${date} rate #${i + 1} "Cur_Abbreviation"`);
    const where = () => `${origin}: ${date} currency=${code}`;
    if (row['Cur_OfficialRate'] === null) return;
    collector.add(date, code, numberText(row['Cur_OfficialRate'], () => `${where()} "Cur_OfficialRate"`), numberText(row['Cur_Scale'], () => `${where()} "Cur_Scale"`));
  });
  return collector.result();
}
