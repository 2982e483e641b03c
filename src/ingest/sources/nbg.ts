import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { eachDay } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const CURRENCIES = 'https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/';

/** A day as the API writes it: midnight UTC of the day the rates are in force. */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(\.000)?Z$/;

/**
 * National Bank of Georgia, official rates (JSON `[{date, currencies: [{code, quantity, rate,
 * validFromDate, …}]}]`): GEL per `quantity` units (1 … 10,000). The rates set on a day are in
 * force from the next (`validFromDate`, the document's `date`), which is the day stored. The
 * formatted strings (`rateFormated`) repeat the number and are not read.
 */
export const nbg: SourceAdapter = {
  id: 'nbg',
  name: 'National Bank of Georgia',
  base: 'GEL',
  terms: 'base-per-unit',
  country: 'GE',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AMD AUD AZN BRL BYN CAD CHF CNY CZK DKK EGP EUR GBP GEL HKD HUF ILS INR IRR ISK JPY',
    'KGS KRW KWD KZT MDL NOK NZD PLN QAR RON RSD RUB SEK SGD TJS TMT TRY UAH USD UZS ZAR',
  ].join(' ').split(' '),
  homepage: 'https://nbg.gov.ge/en/monetary-policy/currency',
  schedule: {
    localTime: '17:15',
    timeZone: 'Asia/Tbilisi',
    weekdays: [1, 2, 3, 4, 5],
    note: 'set at 17:00 Tbilisi time each business day, in force from the next day',
  },
  // The API answers one day (the rates in force on it): a range is one request per day.
  urls: (range?: DayRange) => {
    if (!range) return [CURRENCIES];
    return eachDay(range).map((day) => `${CURRENCIES}?date=${day}`);
  },
  parse: async (bytes, origin) => parseNbg(bytes, origin),
};

function dayOf(text: string, what: () => string): string {
  const day = MIDNIGHT.exec(text)?.[1];
  if (day === undefined) throw new IngestFormatError(`${what()}: invalid day ${showValue(text)} (expected YYYY-MM-DDT00:00:00.000Z)`);
  return day;
}

function parseNbg(bytes: Buffer, origin: string): SourceDay[] {
  const publications = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, nbg.base);
  publications.forEach((item, i) => {
    const at = () => `${origin}: publication #${i + 1}`;
    const publication = objectValue(item, at);
    const date = dayOf(stringValue(publication['date'], () => `${at()} "date"`), () => `${at()} "date"`);
    collector.day(date, `publication #${i + 1}`);
    arrayValue(publication['currencies'], () => `${origin}: ${date} "currencies"`).forEach((entry, j) => {
      const rate = objectValue(entry, () => `${origin}: ${date} currency #${j + 1}`);
      const code = stringValue(rate['code'], () => `${origin}: ${date} currency #${j + 1} "code"`);
      const where = () => `${origin}: ${date} currency=${code}`;
      const validFrom = dayOf(stringValue(rate['validFromDate'], () => `${where()} "validFromDate"`), () => `${where()} "validFromDate"`);
      if (validFrom !== date) throw new IngestFormatError(`${where()}: valid from ${validFrom}, not the publication's day`);
      collector.add(date, code, numberText(rate['rate'], () => `${where()} "rate"`), numberText(rate['quantity'], () => `${where()} "quantity"`));
    });
  });
  return collector.result();
}
