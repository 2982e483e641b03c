import { IngestFormatError } from '../parsed-day.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import { eachDay, today } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const EXPORT = 'https://www.nbt.tj/en/kurs/export_xml.php';

/**
 * National Bank of Tajikistan: official rates, TJS per `Nominal` units (1 to 1000) of each
 * currency in `Value`, decimal point; the day in `ValCurs Date="YYYY-MM-DD"`.
 */
export const nbt: SourceAdapter = {
  id: 'nbt',
  name: 'National Bank of Tajikistan',
  base: 'TJS',
  terms: 'base-per-unit',
  country: 'TJ',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AFN AMD AUD AZN BYN CAD CHF CNY DKK EUR GBP GEL INR IRR ISK JPY KGS KRW KWD KZT MDL',
    'MYR NOK PKR PLN RUB SAR SEK SGD THB TJS TMT TRY UAH USD UZS',
  ].join(' ').split(' '),
  homepage: 'https://www.nbt.tj/en/kurs/',
  schedule: {
    localTime: '16:00',
    timeZone: 'Asia/Dushanbe',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official exchange rates of the somoni set each business day',
  },
  // The export takes one day (date=YYYY-MM-DD): the latest is today's, a range one request a day.
  urls: (range?: DayRange) => {
    return (range ? eachDay(range) : [today()]).map((day) => `${EXPORT}?date=${day}&export=xmlout`);
  },
  parse: async (bytes, origin) => parseNbt(bytes, origin),
};

function parseNbt(bytes: Buffer, origin: string): SourceDay[] {
  const root = xmlNode(readBankXml(bytes, origin, ['Valute'])['ValCurs']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not ValCurs`);
  const date = root['@_Date'];
  if (typeof date !== 'string') throw new IngestFormatError(`${origin}: ValCurs has no Date`);
  const collector = new DayCollector(origin, nbt.base);
  collector.day(date, 'ValCurs');
  xmlNodes(root, 'Valute').forEach((valute, i) => {
    const code = childText(valute, 'CharCode');
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date} Valute #${i + 1} has no CharCode`);
    const value = childText(valute, 'Value');
    const nominal = childText(valute, 'Nominal');
    if (value === undefined || nominal === undefined) throw new IngestFormatError(`${origin}: ${date} currency=${code} lacks its Value or Nominal`);
    collector.add(date, code, value, nominal);
  });
  return collector.result();
}
