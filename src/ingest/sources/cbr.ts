import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector, isoFromDotted } from './day-collector.js';
import type { SourceAdapter, SourceDay } from './source-adapter.js';

const DAILY = 'https://www.cbr.ru/scripts/XML_daily.asp';

type XmlNode = Record<string, unknown>;

// Every value stays the text written (no number parsing, no trimming): `Value` has a decimal
// comma and must keep every digit. Valute is always an array, so a one-currency day reads alike.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && name === 'Valute',
});

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
    const urls: string[] = [];
    for (let t = Date.parse(range.from); t <= Date.parse(range.to); t += 86_400_000) {
      const [year, month, day] = new Date(t).toISOString().slice(0, 10).split('-');
      urls.push(`${DAILY}?date_req=${day}/${month}/${year}`);
    }
    return urls;
  },
  parse: async (bytes, origin) => parseCbr(bytes, origin),
};

function parseCbr(bytes: Buffer, origin: string): SourceDay[] {
  const text = decode(bytes, origin);
  if (/<!doctype/i.test(text)) throw new IngestFormatError(`${origin}: holds a DOCTYPE declaration; the CBR's files have none, refusing the file`);
  const body = text.trimStart();
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new IngestFormatError(`${origin}: malformed XML at line ${valid.err.line}: ${valid.err.msg.slice(0, 200)}`);
  const root = node(node(parser.parse(body))?.['ValCurs']);
  if (!root) throw new IngestFormatError(`${origin}: root element is not ValCurs`);
  const dotted = root['@_Date'];
  const date = typeof dotted === 'string' ? isoFromDotted(dotted) : undefined;
  if (date === undefined) throw new IngestFormatError(`${origin}: ValCurs has no valid Date (expected DD.MM.YYYY), got ${showValue(String(dotted))}`);

  const collector = new DayCollector(origin, cbr.base);
  collector.day(date, 'ValCurs');
  const valutes = root['Valute'];
  (Array.isArray(valutes) ? valutes : []).forEach((item, i) => {
    const valute = node(item);
    const code = childText(valute, 'CharCode');
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date} Valute #${i + 1} has no CharCode`);
    const where = `${origin}: ${date} currency=${code}`;
    const value = childText(valute, 'Value');
    const nominal = childText(valute, 'Nominal');
    if (value === undefined || nominal === undefined) throw new IngestFormatError(`${where} lacks its Value or Nominal`);
    // A decimal comma, never a point: "88,2826". A point would mean a format the CBR does not use.
    if (value.includes('.')) throw new IngestFormatError(`${where}: invalid rate ${showValue(value)} (the CBR writes a decimal comma)`);
    collector.add(date, code, value.replace(',', '.'), nominal);
  });
  return collector.result();
}

/**
 * The CBR serves windows-1251 and says so in the XML declaration; UTF-8 is read too (a proxy may
 * re-encode). Any other declared encoding is refused rather than guessed.
 */
function decode(bytes: Buffer, origin: string): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  if (declared !== 'windows-1251' && declared !== 'utf-8') {
    throw new IngestFormatError(`${origin}: declares encoding ${showValue(declared)}; expected windows-1251 or UTF-8`);
  }
  try {
    return new TextDecoder(declared, { fatal: true }).decode(bytes);
  } catch {
    throw new IngestFormatError(`${origin}: not valid ${declared}`);
  }
}

function node(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

/** The text of a child element that occurs once, else undefined. */
function childText(parent: XmlNode | undefined, name: string): string | undefined {
  const value = parent?.[name];
  return typeof value === 'string' ? value : undefined;
}
