import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { eachDay, today } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';
import { columnsOf, numberedLines, readUtf8, splitFields } from './text-table.js';

const DAILY = 'https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates';

/** The only convention read: units of the currency per 1 EUR, as the ECB quotes. */
const CONVENTION = 'Foreign currency amount for 1 Euro.';

const COLUMNS = ['ISO Code', 'Rate', 'Rate convention', 'Reference date (CET)'] as const;

/**
 * Banca d'Italia, daily rates against the euro (CSV, one day per document): units of each
 * currency per 1 EUR, the ECB's own terms. A currency used by several countries (XOF, XAF, XCD)
 * has one row per country, with the same rate; "N.A." marks a rate not available that day.
 * Trailing "#" lines are the bank's disclaimer.
 */
export const bdi: SourceAdapter = {
  id: 'bdi',
  name: "Banca d'Italia",
  base: 'EUR',
  terms: 'units-per-base',
  country: 'IT',
  rateType: 'indicative',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BZD',
    'CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL',
    'GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD ISK JMD JOD JPY KES KGS KHR KMF',
    'KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN',
    'MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RWF SAR SBD',
    'SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS',
    'UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF YER ZAR ZMW ZWG',
  ].join(' ').split(' '),
  homepage: 'https://tassidicambio.bancaditalia.it/',
  schedule: {
    localTime: '16:30',
    timeZone: 'Europe/Rome',
    weekdays: [1, 2, 3, 4, 5],
    note: 'rates of the day published each Italian working day, after the ECB concertation (not in real time)',
  },
  // The feed takes one reference day: the latest is today's (UTC) day, a range one request per weekday.
  urls: (range?: DayRange) => {
    const url = (day: string) => `${DAILY}?currencyIsoCode=EUR&lang=en&referenceDate=${day}`;
    if (!range) return [url(today())];
    const weekdays = eachDay(range).filter((day) => ![0, 6].includes(new Date(day).getUTCDay()));
    return weekdays.map(url);
  },
  parse: async (bytes, origin) => parseBdi(bytes, origin),
};

function parseBdi(bytes: Buffer, origin: string): SourceDay[] {
  const rows = numberedLines(readUtf8(bytes, origin)).filter((row) => row.text !== '' && !row.text.startsWith('#'));
  const header = rows.shift();
  if (!header) throw new IngestFormatError(`${origin}: the document holds no rates`);
  const names = splitFields(header.text, ',', () => `${origin}: line ${header.line}`);
  const columns = columnsOf(names, COLUMNS, () => `${origin}: line ${header.line}`);
  const collector = new DayCollector(origin, bdi.base);
  // A code seen on each day, with the rate as written: one currency of several countries is one value.
  const written = new Map<string, string>();
  for (const { line, text } of rows) {
    const at = () => `${origin}: line ${line}`;
    const fields = splitFields(text, ',', at);
    if (fields.length !== names.length) throw new IngestFormatError(`${at()}: ${fields.length} fields, the header has ${names.length}`);
    const date = fields[columns['Reference date (CET)']]!;
    collector.day(date, `line ${line}`);
    const code = fields[columns['ISO Code']]!;
    const where = () => `${origin}: ${date} currency=${code}`;
    const convention = fields[columns['Rate convention']]!;
    if (convention !== CONVENTION) throw new IngestFormatError(`${where()}: rate convention ${showValue(convention)}, expected ${showValue(CONVENTION)}`);
    const rate = fields[columns.Rate]!;
    if (rate === 'N.A.') continue;
    const before = written.get(`${date} ${code}`);
    if (before !== undefined) {
      if (before === rate) continue;
      throw new IngestFormatError(`${where()} appears twice with different rates, ${showValue(before)} and ${showValue(rate)}`);
    }
    written.set(`${date} ${code}`, rate);
    collector.add(date, code, rate, '1');
  }
  return collector.result();
}
