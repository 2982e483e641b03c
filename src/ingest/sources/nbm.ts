import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector, dottedFromIso, isoFromDotted } from './day-collector.js';
import { eachDay } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const SITE = 'https://www.bnm.md/en';

/** The two documents of a day: currencies (ValCurs of Valute) and metals (MetalPrice of Metal). */
const DOCUMENTS = [
  { page: 'official_exchange_rates', root: 'ValCurs', row: 'Valute' },
  { page: 'official_metal_rates', root: 'MetalPrice', row: 'Metal' },
] as const;

const METALS = new Set(['XAU', 'XAG', 'XPT', 'XPD']);

/**
 * Banca Naţională a Moldovei: official rates, MDL per `Nominal` units (1, 10 or 100) of each
 * currency in `Value`, decimal point; the day in the root's `Date="DD.MM.YYYY"`. Gold and silver
 * come in a second document, MDL per gram ("Gram gold"): stored per troy ounce, times 31.1034768.
 */
export const nbm: SourceAdapter = {
  id: 'nbm',
  name: 'Banca Naţională a Moldovei',
  base: 'MDL',
  terms: 'base-per-unit',
  country: 'MD',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED ALL AMD AUD AZN BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF ILS INR ISK JPY KGS KRW',
    'KWD KZT MDL MKD MYR NOK NZD PLN RON RSD RUB SEK TJS TMT TRY UAH USD UZS XAG XAU XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.bnm.md/en/official_exchange_rates',
  schedule: {
    localTime: '15:00',
    timeZone: 'Europe/Chisinau',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official rates set each business day and in force the next day',
  },
  // Each page takes one day (date=DD.MM.YYYY), the current one without: a range is two requests a day.
  urls: (range?: DayRange) => {
    if (!range) return DOCUMENTS.map(({ page }) => `${SITE}/${page}?get_xml=1`);
    return eachDay(range).flatMap((day) => DOCUMENTS.map(({ page }) => `${SITE}/${page}?date=${dottedFromIso(day)}&get_xml=1`));
  },
  parse: async (bytes, origin) => parseNbm(bytes, origin),
};

function parseNbm(bytes: Buffer, origin: string): SourceDay[] {
  const document = readBankXml(bytes, origin, DOCUMENTS.map(({ row }) => row));
  const kind = DOCUMENTS.find(({ root }) => document[root] !== undefined);
  if (!kind) throw new IngestFormatError(`${origin}: root element is neither ValCurs nor MetalPrice`);
  const root = xmlNode(document[kind.root]);
  const dotted = root?.['@_Date'];
  const date = typeof dotted === 'string' ? isoFromDotted(dotted) : undefined;
  if (date === undefined) throw new IngestFormatError(`${origin}: ${kind.root} has no valid Date (expected DD.MM.YYYY), got ${showValue(String(dotted))}`);

  const collector = new DayCollector(origin, nbm.base);
  collector.day(date, kind.root);
  xmlNodes(root, kind.row).forEach((row, i) => {
    const code = childText(row, 'CharCode');
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date} ${kind.row} #${i + 1} has no CharCode`);
    const where = () => `${origin}: ${date} currency=${code}`;
    const value = childText(row, 'Value');
    const nominal = childText(row, 'Nominal');
    if (value === undefined || nominal === undefined) throw new IngestFormatError(`${where()} lacks its Value or Nominal`);
    if (kind.row === 'Metal') {
      // Every metal the bank lists is priced per gram ("Gram gold"); a currency here is not a metal.
      if (!METALS.has(code)) throw new IngestFormatError(`${where()}: not a precious metal (XAU, XAG, XPT, XPD)`);
      collector.addPerGram(date, code, value, nominal);
    } else {
      collector.add(date, code, value, nominal);
    }
  });
  return collector.result();
}
