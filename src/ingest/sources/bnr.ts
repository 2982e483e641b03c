import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { readBankXml, xmlChildren, xmlNode, xmlText } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const FILES = 'https://curs.bnr.ro';

/** Gold: the only metal the bank quotes, in RON per gram. */
const PER_GRAM = new Set(['XAU']);

/**
 * Banca Națională a României, reference rates (XML `DataSet`, one `Cube date` per day): RON per
 * 1 unit, or per `multiplier` units (100 for HUF, IDR, ISK, JPY, KRW). XAU is RON per gram,
 * stored per troy ounce (× 31.1034768, DECISIONS §15).
 */
export const bnr: SourceAdapter = {
  id: 'bnr',
  name: 'Banca Națională a României',
  base: 'RON',
  terms: 'base-per-unit',
  country: 'RO',
  rateType: 'reference',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AUD BRL CAD CHF CNY CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MDL MXN MYR',
    'NOK NZD PHP PLN RON RSD RUB SEK SGD THB TRY UAH USD XAU XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bnr.ro/en/561-exchange-rates',
  schedule: {
    localTime: '13:15',
    timeZone: 'Europe/Bucharest',
    weekdays: [1, 2, 3, 4, 5],
    note: 'reference rates set and published around 13:00 each Romanian banking day',
  },
  // The daily file for the latest; a range is fetched as the year files it spans.
  urls: (range?: DayRange) => {
    if (!range) return [`${FILES}/nbrfxrates.xml`];
    const urls: string[] = [];
    for (let year = Number(range.from.slice(0, 4)); year <= Number(range.to.slice(0, 4)); year++) {
      urls.push(`${FILES}/files/xml/years/nbrfxrates${year}.xml`);
    }
    return urls;
  },
  parse: async (bytes, origin) => parseBnr(bytes, origin),
};

function parseBnr(bytes: Buffer, origin: string): SourceDay[] {
  const root = xmlNode(readBankXml(bytes, origin, ['Cube', 'Rate'])['DataSet']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not DataSet`);
  const body = xmlNode(root['Body']);
  const orig = xmlText(body?.['OrigCurrency']);
  if (orig !== 'RON') throw new IngestFormatError(`${origin}: OrigCurrency is ${showValue(String(orig))}, expected "RON"`);
  const collector = new DayCollector(origin, bnr.base);
  xmlChildren(body, 'Cube').forEach((item, i) => {
    const cube = xmlNode(item);
    const date = cube?.['@_date'];
    if (typeof date !== 'string') throw new IngestFormatError(`${origin}: Cube #${i + 1} has no date`);
    collector.day(date, `Cube #${i + 1}`);
    xmlChildren(cube, 'Rate').forEach((rate, j) => {
      const code = xmlNode(rate)?.['@_currency'];
      if (typeof code !== 'string') throw new IngestFormatError(`${origin}: ${date} Rate #${j + 1} has no currency`);
      const where = `${origin}: ${date} currency=${code}`;
      const value = xmlText(rate);
      if (value === undefined) throw new IngestFormatError(`${where}: the rate is not text`);
      const multiplier = xmlNode(rate)?.['@_multiplier'] ?? '1';
      if (typeof multiplier !== 'string') throw new IngestFormatError(`${where}: invalid multiplier`);
      if (!PER_GRAM.has(code)) return collector.add(date, code, value, multiplier);
      if (multiplier !== '1') throw new IngestFormatError(`${where}: a metal per gram with a multiplier ${showValue(multiplier)}`);
      collector.addPerGram(date, code, value);
    });
  });
  return collector.result();
}
