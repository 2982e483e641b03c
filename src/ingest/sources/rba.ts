import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import type { SourceAdapter, SourceDay } from './source-adapter.js';
import { monthNumber, numberedLines, readUtf8, splitFields } from './text-table.js';

const F11 = 'https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv';

/** A data row starts with its day, "03-Jan-2023". */
const DAY = /^(\d{2})-([A-Z][a-z]{2})-(\d{4})$/;

/**
 * Reserve Bank of Australia, statistical table F11.1 (CSV with ten header rows): units of each
 * currency per 1 AUD ("A$1=USD"), the 4pm indicative rates, kept as written. The `Units` row
 * names each column's currency; the trade-weighted index column ("Index") is not a currency and
 * is left out, and the IMF's "SDR" is XDR. An empty cell is no value that day.
 */
export const rba: SourceAdapter = {
  id: 'rba',
  name: 'Reserve Bank of Australia',
  base: 'AUD',
  terms: 'units-per-base',
  country: 'AU',
  rateType: 'indicative',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  // (Its AED and ZAR columns are empty on every recorded day: both ended on 2024-10-01.)
  codes: 'AUD CAD CHF CNY EUR GBP HKD IDR INR JPY KRW MYR NZD PGK PHP SGD THB TWD USD VND XDR'.split(' '),
  homepage: 'https://www.rba.gov.au/statistics/frequency/exchange-rates.html',
  schedule: {
    localTime: '16:30',
    timeZone: 'Australia/Sydney',
    weekdays: [1, 2, 3, 4, 5],
    note: 'indicative rates at 4pm Eastern Australian time, published each Australian business day',
  },
  // One table holds every day since 2023: the latest and any range are the same file.
  urls: () => [F11],
  parse: async (bytes, origin) => parseRba(bytes, origin),
};

function parseRba(bytes: Buffer, origin: string): SourceDay[] {
  const collector = new DayCollector(origin, rba.base);
  let title: string[] | undefined;
  let codes: (string | undefined)[] | undefined;
  const seen = new Set<string>();
  for (const { line, text } of numberedLines(readUtf8(bytes, origin))) {
    const at = () => `${origin}: line ${line}`;
    if (/^,*$/.test(text)) continue;
    const fields = splitFields(text, ',', at);
    const match = DAY.exec(fields[0]!);
    if (!match) {
      if (fields[0] === 'Title') title = fields;
      if (fields[0] === 'Units') codes = unitsRow(fields, title, at);
      continue;
    }
    const month = monthNumber(match[2]!);
    const date = `${match[3]}-${month}-${match[1]}`;
    if (!month || !isValidIsoDate(date)) throw new IngestFormatError(`${at()} has an invalid date ${showValue(fields[0]!)}`);
    if (!codes) throw new IngestFormatError(`${at()}: a day before the header's Units row`);
    if (seen.has(date)) throw new IngestFormatError(`${origin}: the row of ${date} appears twice`);
    seen.add(date);
    if (fields.length !== codes.length) throw new IngestFormatError(`${origin}: ${date}: ${fields.length} fields, the header has ${codes.length}`);
    collector.day(date, `line ${line}`);
    codes.forEach((code, i) => {
      const value = fields[i]!;
      if (code !== undefined && value !== '') collector.add(date, code, value, '1');
    });
  }
  return collector.result();
}

/**
 * Each column's currency from the `Units` row (undefined for the day column and the index),
 * checked against its title "A$1=CODE": a column in other terms would be read the wrong way up.
 */
function unitsRow(units: string[], title: string[] | undefined, at: () => string): (string | undefined)[] {
  if (!title || title.length !== units.length) throw new IngestFormatError(`${at()}: the Units row does not match a Title row`);
  return units.map((unit, i) => {
    if (i === 0 || unit === 'Index') return undefined;
    if (title[i] !== `A$1=${unit}`) throw new IngestFormatError(`${at()}: column ${i + 1} is ${showValue(title[i]!)}, expected "A$1=${unit}"`);
    return unit === 'SDR' ? 'XDR' : unit;
  });
}
