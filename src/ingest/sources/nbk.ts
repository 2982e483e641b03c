import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { readBankXml, xmlChildren, xmlNode, xmlText } from './bank-xml.js';
import { DayCollector, dottedFromIso, isoFromDotted } from './day-collector.js';
import { eachDay, today } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const RATES = 'https://nationalbank.kz/rss/get_rates.cfm';

/**
 * National Bank of Kazakhstan, official rates (XML `<rates><date>DD.MM.YYYY</date><item>…`):
 * KZT per `quant` units (1, 10, 100, 1000) of the currency in `title`, the rate in
 * `description`. One day per document.
 */
export const nbk: SourceAdapter = {
  id: 'nbk',
  name: 'National Bank of Kazakhstan',
  base: 'KZT',
  terms: 'base-per-unit',
  country: 'KZ',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AMD AUD AZN BRL BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF INR IRR JPY KGS KRW KWD',
    'KZT MDL MXN MYR NOK PLN RUB SAR SEK SGD THB TJS TRY UAH USD UZS XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://nationalbank.kz/en/exchangerates/ezhednevnye-oficialnye-rynochnye-kursy-valyut',
  schedule: {
    localTime: '16:00',
    timeZone: 'Asia/Almaty',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official market rates set from the day\'s exchange trading and published each business day',
  },
  // The feed takes one day (fdate=DD.MM.YYYY): the latest is today's (UTC) day, a range one request per day.
  urls: (range?: DayRange) => {
    return (range ? eachDay(range) : [today()]).map((day) => `${RATES}?fdate=${dottedFromIso(day)}`);
  },
  parse: async (bytes, origin) => parseNbk(bytes, origin),
};

function parseNbk(bytes: Buffer, origin: string): SourceDay[] {
  const root = xmlNode(readBankXml(bytes, origin, ['item'])['rates']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not rates`);
  const dotted = xmlText(root['date']);
  const date = dotted === undefined ? undefined : isoFromDotted(dotted);
  if (date === undefined) throw new IngestFormatError(`${origin}: rates has no valid date (expected DD.MM.YYYY), got ${showValue(String(dotted))}`);
  const collector = new DayCollector(origin, nbk.base);
  collector.day(date, 'rates');
  xmlChildren(root, 'item').forEach((item, i) => {
    const code = xmlText(xmlNode(item)?.['title']);
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date} item #${i + 1} has no title`);
    const where = `${origin}: ${date} currency=${code}`;
    const value = xmlText(xmlNode(item)?.['description']);
    const quant = xmlText(xmlNode(item)?.['quant']);
    if (value === undefined || quant === undefined) throw new IngestFormatError(`${where} lacks its description or quant`);
    collector.add(date, code, value, quant);
  });
  return collector.result();
}
