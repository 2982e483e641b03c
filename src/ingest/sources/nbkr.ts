import { IngestFormatError } from '../parsed-day.js';
import { fromDecimalComma, showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector, isoFromDotted } from './day-collector.js';
import type { SourceAdapter, SourceDay } from './source-adapter.js';

/** The daily file (USD, EUR, CNY, KZT, RUB) and the weekly one (every other currency). */
const FEEDS = ['https://www.nbkr.kg/XML/daily.xml', 'https://www.nbkr.kg/XML/weekly.xml'];

/**
 * Codes the weekly file still lists after ISO 4217 withdrew them, by the first day they were no
 * longer current: the Belarusian rouble of before 2016-07-01 (BYR), listed next to BYN.
 */
const WITHDRAWN: Readonly<Record<string, string>> = { BYR: '2016-07-01' };

/**
 * National Bank of the Kyrgyz Republic: official rates, KGS per `Nominal` units (1, 10 or 100)
 * in `Value` with a decimal comma, the day in `CurrencyRates Date="DD.MM.YYYY"`. Declared
 * windows-1251. A weekly rate (`ValidFor` 7) is stored on its own day only, as every value.
 */
export const nbkr: SourceAdapter = {
  id: 'nbkr',
  name: 'National Bank of the Kyrgyz Republic',
  base: 'KGS',
  terms: 'base-per-unit',
  country: 'KG',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AFN AMD AUD AZN BRL BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF IDR INR IRR JPY KGS',
    'KRW KWD KZT MDL MNT MYR NOK NZD OMR PKR PLN RUB SAR SEK SGD TJS TMT TRY TWD UAH USD UZS XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG',
  schedule: {
    localTime: '17:00',
    timeZone: 'Asia/Bishkek',
    weekdays: [1, 2, 3, 4, 5],
    note: 'daily official rates for five currencies each business day; the others weekly',
  },
  // The XML files carry only the current publication (history is HTML pages without codes).
  urls: () => [...FEEDS],
  parse: async (bytes, origin) => parseNbkr(bytes, origin),
};

function parseNbkr(bytes: Buffer, origin: string): SourceDay[] {
  const root = xmlNode(readBankXml(bytes, origin, ['Currency'], ['windows-1251', 'utf-8'])['CurrencyRates']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not CurrencyRates`);
  const dotted = root['@_Date'];
  const date = typeof dotted === 'string' ? isoFromDotted(dotted) : undefined;
  if (date === undefined) throw new IngestFormatError(`${origin}: CurrencyRates has no valid Date (expected DD.MM.YYYY), got ${showValue(String(dotted))}`);
  const collector = new DayCollector(origin, nbkr.base);
  collector.day(date, 'CurrencyRates');
  xmlNodes(root, 'Currency').forEach((currency, i) => {
    const code = currency?.['@_ISOCode'];
    if (typeof code !== 'string') throw new IngestFormatError(`${origin}: ${date} Currency #${i + 1} has no ISOCode`);
    const where = `${origin}: ${date} currency=${code}`;
    const value = childText(currency, 'Value');
    const nominal = childText(currency, 'Nominal');
    if (value === undefined || nominal === undefined) throw new IngestFormatError(`${where} lacks its Value or Nominal`);
    const rate = fromDecimalComma(value, where, 'the NBKR');
    const withdrawn = WITHDRAWN[code];
    if (withdrawn !== undefined && date >= withdrawn) return;
    collector.add(date, code, rate, nominal);
  });
  return collector.result();
}
