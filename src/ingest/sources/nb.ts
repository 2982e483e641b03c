import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';
import { columnsOf, numberedLines, readUtf8, splitFields } from './text-table.js';

const EXR = 'https://data.norges-bank.no/api/data/EXR/B..NOK.SP';

const COLUMNS = ['FREQ', 'BASE_CUR', 'QUOTE_CUR', 'TENOR', 'UNIT_MULT', 'TIME_PERIOD', 'OBS_VALUE'] as const;

/** Series of the dataset that are indices, not currencies: the trade-weighted and import-weighted. */
const INDICES = new Set(['I44', 'TWI']);

/**
 * Norges Bank, EXR dataset (SDMX CSV, one row per series and day): NOK per 10^UNIT_MULT units of
 * BASE_CUR (1 or 100), the middle rate at the daily fixing. The I44 and TWI series are currency
 * indices and are left out; XDR is calculated by the bank and kept. An empty OBS_VALUE is no value.
 */
export const nb: SourceAdapter = {
  id: 'nb',
  name: 'Norges Bank',
  base: 'NOK',
  terms: 'base-per-unit',
  country: 'NO',
  rateType: 'middle rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BDT BRL BYN CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MMK MXN MYR',
    'NOK NZD PHP PKR PLN RON SEK SGD THB TRY TWD USD VND XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.norges-bank.no/en/topics/Statistics/exchange_rates/',
  schedule: {
    localTime: '16:00',
    timeZone: 'Europe/Oslo',
    weekdays: [1, 2, 3, 4, 5],
    note: 'middle rates at about 14:15 published around 16:00 on Norwegian business days',
  },
  urls: (range?: DayRange) => [
    range ? `${EXR}?endPeriod=${range.to}&format=csvdata&startPeriod=${range.from}` : `${EXR}?format=csvdata&lastNObservations=1`,
  ],
  parse: async (bytes, origin) => parseNb(bytes, origin),
};

function parseNb(bytes: Buffer, origin: string): SourceDay[] {
  const rows = numberedLines(readUtf8(bytes, origin)).filter((row) => row.text !== '');
  const header = rows.shift();
  if (!header) throw new IngestFormatError(`${origin}: the document holds no rates`);
  const names = splitFields(header.text, ',', () => `${origin}: line ${header.line}`);
  const columns = columnsOf(names, COLUMNS, () => `${origin}: line ${header.line}`);
  const collector = new DayCollector(origin, nb.base);
  for (const { line, text } of rows) {
    const at = () => `${origin}: line ${line}`;
    const fields = splitFields(text, ',', at);
    if (fields.length !== names.length) throw new IngestFormatError(`${at()}: ${fields.length} fields, the header has ${names.length}`);
    const date = fields[columns.TIME_PERIOD]!;
    collector.day(date, `line ${line}`);
    const code = fields[columns.BASE_CUR]!;
    const where = () => `${origin}: ${date} currency=${code}`;
    const series = `${fields[columns.FREQ]}.${code}.${fields[columns.QUOTE_CUR]}.${fields[columns.TENOR]}`;
    if (series !== `B.${code}.NOK.SP`) throw new IngestFormatError(`${where()}: series ${showValue(series)} is not a business-day spot rate in NOK`);
    const value = fields[columns.OBS_VALUE]!;
    if (INDICES.has(code) || value === '') continue;
    const exponent = fields[columns.UNIT_MULT]!;
    if (!/^\d$/.test(exponent)) throw new IngestFormatError(`${where()}: invalid UNIT_MULT ${showValue(exponent)}`);
    collector.add(date, code, value, `1${'0'.repeat(Number(exponent))}`);
  }
  return collector.result();
}
