import { IngestFormatError } from '../parsed-day.js';
import { fromDecimalComma, showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector, isoFromDotted } from './day-collector.js';
import { eachDay } from './day-range.js';
import type { SourceAdapter, SourceDay } from './source-adapter.js';

const DAILY = 'https://www.cbr.ru/scripts/XML_daily.asp';

/**
 * Bank of Russia, XML_daily: RUB per `Nominal` units (1 … 1,000,000) of each currency, `Value`
 * with a decimal comma, the day in `ValCurs Date="DD.MM.YYYY"`: the day the rates take effect
 * (set the business day before, so a day can be ahead of today). Served in windows-1251.
 */
export const cbr: SourceAdapter = {
  id: 'cbr',
  name: 'Bank of Russia',
  base: 'RUB',
  terms: 'base-per-unit',
  country: 'RU',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: '1992-07-01',
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AMD AUD AZN BDT BHD BOB BRL BYN CAD CHF CNY CUP CZK DKK DZD EGP ETB EUR GBP GEL HKD',
    'HUF IDR INR IRR JPY KGS KRW KZT MDL MMK MNT NGN NOK NZD OMR PLN QAR RON RSD RUB SAR SEK',
    'SGD THB TJS TMT TRY UAH USD UZS VND XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.cbr.ru/eng/currency_base/daily/',
  schedule: {
    localTime: '15:30',
    timeZone: 'Europe/Moscow',
    weekdays: [1, 2, 3, 4, 5],
    note: 'set every business day as of 15:30 Moscow time, effective from the next calendar day',
  },
  // The feed takes one day (date_req=DD/MM/YYYY), not a range: a range is that many requests.
  urls: (range) => {
    if (!range) return [DAILY];
    return eachDay(range).map((iso) => {
      const [year, month, day] = iso.split('-');
      return `${DAILY}?date_req=${day}/${month}/${year}`;
    });
  },
  parse: async (bytes, origin) => parseCbr(bytes, origin),
};

function parseCbr(bytes: Buffer, origin: string): SourceDay[] {
  // Windows-1251 as served, UTF-8 too (a proxy may re-encode): `Value` keeps its decimal comma.
  const root = xmlNode(readBankXml(bytes, origin, ['Valute'], ['windows-1251', 'utf-8'])['ValCurs']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not ValCurs`);
  const dotted = root['@_Date'];
  const date = typeof dotted === 'string' ? isoFromDotted(dotted) : undefined;
  if (date === undefined) throw new IngestFormatError(`${origin}: ValCurs has no valid Date (expected DD.MM.YYYY), got ${showValue(String(dotted))}`);

  const collector = new DayCollector(origin, cbr.base);
  collector.day(date, 'ValCurs');
  xmlNodes(root, 'Valute').forEach((valute, i) => {
    const code = childText(valute, 'CharCode');
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date} Valute #${i + 1} has no CharCode`);
    const where = `${origin}: ${date} currency=${code}`;
    const value = childText(valute, 'Value');
    const nominal = childText(valute, 'Nominal');
    if (value === undefined || nominal === undefined) throw new IngestFormatError(`${where} lacks its Value or Nominal`);
    collector.add(date, code, fromDecimalComma(value, where, 'the CBR'), nominal);
  });
  return collector.result();
}
