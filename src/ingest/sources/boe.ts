import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { daysAgo } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';
import { monthAbbreviation, monthNumber, numberedLines, readUtf8, splitFields } from './text-table.js';

const IADB = 'https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp';

/**
 * The Bank's spot series, units of the currency per 1 GBP, by series code (its database names
 * them by code only; the XUDLBKnn and XUDLZOS4 series are the Bank's own numbering).
 */
const SERIES: Readonly<Record<string, string>> = {
  XUDLUSS: 'USD', XUDLERS: 'EUR', XUDLJYS: 'JPY', XUDLCDS: 'CAD', XUDLSFS: 'CHF', XUDLADS: 'AUD',
  XUDLNDS: 'NZD', XUDLNKS: 'NOK', XUDLSKS: 'SEK', XUDLDKS: 'DKK', XUDLHDS: 'HKD', XUDLSGS: 'SGD',
  XUDLSRS: 'SAR', XUDLZRS: 'ZAR', XUDLTWS: 'TWD', XUDLBK25: 'CZK', XUDLBK33: 'HUF', XUDLBK47: 'PLN',
  XUDLBK78: 'ILS', XUDLBK83: 'MYR', XUDLBK87: 'THB', XUDLBK89: 'CNY', XUDLBK93: 'KRW', XUDLBK95: 'TRY',
  XUDLBK97: 'INR', XUDLZOS4: 'RON',
};

/**
 * Bank of England, daily spot exchange rates against sterling (XUDL…S series, CSV with the
 * series codes as columns): units of each currency per 1 GBP, the mid of the London market at
 * about 4pm, kept as written. Dates are "17 Mar 2026"; an empty cell is no value that day.
 */
export const boe: SourceAdapter = {
  id: 'boe',
  name: 'Bank of England',
  base: 'GBP',
  terms: 'units-per-base',
  country: 'GB',
  rateType: 'spot mid',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD CAD CHF CNY CZK DKK EUR GBP HKD HUF ILS INR JPY KRW MYR NOK NZD PLN RON SAR SEK SGD',
    'THB TRY TWD USD ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bankofengland.co.uk/boeapps/database/Rates.asp?into=GBP',
  schedule: {
    localTime: '17:00',
    timeZone: 'Europe/London',
    weekdays: [1, 2, 3, 4, 5],
    note: 'spot rates observed by the Bank at about 4pm London time, published each UK business day',
  },
  // The database takes a range; the latest is the last seven days up to now.
  urls: (range?: DayRange) => {
    const from = range?.from ?? daysAgo(7);
    const to = range ? boeDay(range.to) : 'now';
    return [`${IADB}?CSVF=TN&Datefrom=${boeDay(from)}&Dateto=${to}&SeriesCodes=${Object.keys(SERIES).join(',')}&UsingCodes=Y&csv.x=yes`];
  },
  parse: async (bytes, origin) => parseBoe(bytes, origin),
};

/** YYYY-MM-DD as the database's DD/Mon/YYYY. */
function boeDay(iso: string): string {
  return `${iso.slice(8)}/${monthAbbreviation(iso.slice(5, 7))}/${iso.slice(0, 4)}`;
}

/** "17 Mar 2026" as 2026-03-17; undefined when not of that shape. */
function isoFromBoe(text: string): string | undefined {
  const match = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/.exec(text);
  const month = match && monthNumber(match[2]!);
  if (!match || !month) return undefined;
  const iso = `${match[3]}-${month}-${match[1]!.padStart(2, '0')}`;
  return isValidIsoDate(iso) ? iso : undefined;
}

function parseBoe(bytes: Buffer, origin: string): SourceDay[] {
  const rows = numberedLines(readUtf8(bytes, origin)).filter((row) => row.text !== '');
  const header = rows.shift();
  if (!header) throw new IngestFormatError(`${origin}: the document holds no rates`);
  const names = splitFields(header.text, ',', () => `${origin}: line ${header.line}`);
  if (names[0] !== 'DATE') throw new IngestFormatError(`${origin}: line ${header.line}: the first column is ${showValue(names[0] ?? '')}, expected "DATE"`);
  const codes = names.slice(1).map((series) => {
    const code = SERIES[series];
    if (!Object.hasOwn(SERIES, series) || code === undefined) throw new IngestFormatError(`${origin}: line ${header.line}: unknown series ${showValue(series)}`);
    return code;
  });
  const collector = new DayCollector(origin, boe.base);
  const seen = new Set<string>();
  for (const { line, text } of rows) {
    const fields = splitFields(text, ',', () => `${origin}: line ${line}`);
    const date = isoFromBoe(fields[0]!);
    if (date === undefined) throw new IngestFormatError(`${origin}: line ${line} has an invalid date ${showValue(fields[0]!)} (expected DD Mon YYYY)`);
    if (seen.has(date)) throw new IngestFormatError(`${origin}: the row of ${date} appears twice`);
    seen.add(date);
    if (fields.length !== names.length) throw new IngestFormatError(`${origin}: ${date}: ${fields.length} fields, the header has ${names.length}`);
    collector.day(date, `line ${line}`);
    codes.forEach((code, i) => {
      const value = fields[i + 1]!;
      if (value !== '') collector.add(date, code, value, '1');
    });
  }
  return collector.result();
}
