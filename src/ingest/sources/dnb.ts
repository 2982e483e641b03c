import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { daysAgo, today } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';
import { numberedLines, readUtf8, splitFields } from './text-table.js';

const STATBANK = 'https://api.statbank.dk/v1/data/DNVALD/BULK';

const HEADER = 'VALUTA;KURTYP;TID;INDHOLD';

/** The statbank's day, "2025M07D08". */
const DAY = /^(\d{4})M(\d{2})D(\d{2})$/;

/** The currencies requested from table DNVALD (the bank's indicative rates). */
const REQUESTED = [
  'EUR', 'USD', 'GBP', 'SEK', 'NOK', 'CHF', 'CAD', 'JPY', 'AUD', 'NZD', 'PLN', 'CZK', 'HUF', 'HKD', 'SGD',
  'ZAR', 'BGN', 'RON', 'TRY', 'KRW', 'THB', 'MYR', 'PHP', 'IDR', 'CNY', 'BRL', 'MXN', 'INR', 'ILS', 'ISK',
];

/**
 * Danmarks Nationalbank, table DNVALD of Statistics Denmark's statbank (BULK: semicolon CSV,
 * one row per currency and day, not in date order): DKK per 100 units, the indicative rate
 * (KURTYP KBH). ".." is the statbank's mark for no value (BGN since the euro replaced it).
 */
export const dnb: SourceAdapter = {
  id: 'dnb',
  name: 'Danmarks Nationalbank',
  base: 'DKK',
  terms: 'base-per-unit',
  country: 'DK',
  rateType: 'indicative',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BGN BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD',
    'PHP PLN RON SEK SGD THB TRY USD ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.nationalbanken.dk/en/what-we-do/stable-prices-monetary-policy-and-the-danish-economy/exchange-rates',
  schedule: {
    localTime: '16:00',
    timeZone: 'Europe/Copenhagen',
    weekdays: [1, 2, 3, 4, 5],
    note: 'indicative rates based on the ECB reference rates, published on Danish banking days after 16:00',
  },
  // The statbank takes a period filter; the latest is the last week up to today.
  urls: (range?: DayRange) => {
    const from = range?.from ?? daysAgo(7);
    const to = range?.to ?? today();
    const tid = encodeURIComponent(`>=${statbankDay(from)}<=${statbankDay(to)}`);
    return [`${STATBANK}?lang=en&valuePresentation=Code&VALUTA=${REQUESTED.join(',')}&KURTYP=KBH&Tid=${tid}`];
  },
  parse: async (bytes, origin) => parseDnb(bytes, origin),
};

function statbankDay(iso: string): string {
  return `${iso.slice(0, 4)}M${iso.slice(5, 7)}D${iso.slice(8)}`;
}

function parseDnb(bytes: Buffer, origin: string): SourceDay[] {
  const rows = numberedLines(readUtf8(bytes, origin)).filter((row) => row.text !== '');
  const header = rows.shift();
  if (!header) throw new IngestFormatError(`${origin}: the document holds no rates`);
  if (header.text !== HEADER) throw new IngestFormatError(`${origin}: line ${header.line}: header ${showValue(header.text)}, expected ${showValue(HEADER)}`);
  const collector = new DayCollector(origin, dnb.base);
  for (const { line, text } of rows) {
    const at = () => `${origin}: line ${line}`;
    const fields = splitFields(text, ';', at);
    if (fields.length !== 4) throw new IngestFormatError(`${at()}: ${fields.length} fields, expected 4`);
    const [code, type, tid, value] = fields as [string, string, string, string];
    const match = DAY.exec(tid);
    const date = match ? `${match[1]}-${match[2]}-${match[3]}` : tid;
    if (!match || !isValidIsoDate(date)) throw new IngestFormatError(`${at()} has an invalid date ${showValue(tid)} (expected YYYYMmmDdd)`);
    collector.day(date, `line ${line}`);
    if (type !== 'KBH') throw new IngestFormatError(`${origin}: ${date} currency=${code}: rate type ${showValue(type)}, expected "KBH"`);
    if (value !== '..') collector.add(date, code, value, '100');
  }
  return collector.result();
}
