import { DayCollector } from './day-collector.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.cnb.cz/cnbapi/exrates';

/**
 * Česká národní banka: CZK per `amount` units (1, 100 or 1000) of each currency. A document is
 * `{"rates": [{currencyCode, amount, validFor, rate, …}]}`, for one day or a whole year.
 */
export const cnb: SourceAdapter = {
  id: 'cnb',
  name: 'Česká národní banka',
  base: 'CZK',
  terms: 'base-per-unit',
  country: 'CZ',
  rateType: 'official fixing',
  cadence: 'daily',
  publishesFrom: '1991-01-01',
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP',
    'PLN RON SEK SGD THB TRY USD XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.cnb.cz/en/financial-markets/foreign-exchange-market/central-bank-exchange-rate-fixing/',
  schedule: {
    localTime: '14:30',
    timeZone: 'Europe/Prague',
    weekdays: [1, 2, 3, 4, 5],
    note: 'declared every business day after 14:30',
  },
  // The API takes a day or a year, not a range: a range is fetched as the years it spans.
  urls: (range?: DayRange) => {
    if (!range) return [`${API}/daily?lang=EN`];
    const urls: string[] = [];
    for (let year = Number(range.from.slice(0, 4)); year <= Number(range.to.slice(0, 4)); year++) {
      urls.push(`${API}/daily-year?lang=EN&year=${year}`);
    }
    return urls;
  },
  parse: async (bytes, origin) => parseCnb(bytes, origin),
};

function parseCnb(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const rates = arrayValue(document['rates'], () => `${origin}: "rates"`);
  const collector = new DayCollector(origin, cnb.base);
  rates.forEach((entry, i) => {
    const at = () => `${origin}: rate #${i + 1}`;
    const rate = objectValue(entry, at);
    const date = stringValue(rate['validFor'], () => `${at()} "validFor"`);
    collector.day(date, `rate #${i + 1}`);
    const code = stringValue(rate['currencyCode'], () => `${origin}: ${date} rate #${i + 1} "currencyCode"`);
    const where = () => `${origin}: ${date} currency=${code}`;
    collector.add(date, code, numberText(rate['rate'], () => `${where()} "rate"`), numberText(rate['amount'], () => `${where()} "amount"`));
  });
  return collector.result();
}
