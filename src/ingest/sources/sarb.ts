import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay, SourceTerms } from './source-adapter.js';

const SERIES_API = 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations';

/**
 * The daily series read: the bank's series code, the currency, and the name it gives the series in
 * `Timeseries` (the document carries no ISO code). The name says which way the figure is written:
 * "Rand per US Dollar" is ZAR per 1 unit, "Norway: Krone per Rand" units per 1 ZAR.
 */
const SERIES: readonly { series: string; code: string; name: string }[] = [
  { series: 'EXCX135D', code: 'USD', name: 'Rand per US Dollar' },
  { series: 'EXCZ001D', code: 'GBP', name: 'Rand per British Pound' },
  { series: 'EXCZ002D', code: 'EUR', name: 'Rand per Euro' },
  { series: 'EXCB003D', code: 'DKK', name: 'Denmark: Krone per Rand' },
  { series: 'EXCB013D', code: 'NOK', name: 'Norway: Krone per Rand' },
  { series: 'EXCB015D', code: 'SEK', name: 'Sweden: Krona per Rand' },
  { series: 'EXCB016D', code: 'CHF', name: 'Switzerland: Franc per Rand' },
  { series: 'EXCB031D', code: 'CAD', name: 'Canada: Dollar per Rand' },
  { series: 'EXCB036D', code: 'BRL', name: 'Brazil: Real per Rand' },
  { series: 'EXCB051D', code: 'BWP', name: 'Botswana: Pula per Rand' },
  { series: 'EXCB059D', code: 'KES', name: 'Kenya: Schilling per Rand' },
  { series: 'EXCB063D', code: 'MWK', name: 'Malawi: Kwacha per Rand' },
  { series: 'EXCB071D', code: 'ZMW', name: 'Zambia: Kwacha per Rand' },
  { series: 'EXCB080D', code: 'AUD', name: 'Australia: Dollar per Rand' },
  { series: 'EXCB081D', code: 'NZD', name: 'New Zealand: Dollar per Rand' },
  { series: 'EXCB094D', code: 'ILS', name: 'Israel: Shekel per Rand' },
  { series: 'EXCB115D', code: 'THB', name: 'Thailand: Baht per Rand' },
  { series: 'EXCB118D', code: 'KRW', name: 'South Korea: Won per Rand' },
  { series: 'EXCB120D', code: 'JPY', name: 'Japan: Yen per Rand' },
  { series: 'EXCB121D', code: 'CNY', name: 'China: Yuan per Rand' },
  { series: 'EXCB122D', code: 'HKD', name: 'Hong Kong: Dollar per Rand' },
  { series: 'EXCB123D', code: 'INR', name: 'India: Rupee per Rand' },
  { series: 'EXCB126D', code: 'TWD', name: 'Taiwan: NT Dollar per Rand' },
];

/** The series by the name a document gives it. */
const BY_NAME = new Map(SERIES.map((entry) => [entry.name, entry]));

/** How a series' figure is written, by its name: rand per unit, or units per rand. */
function termsOf(name: string): SourceTerms {
  if (name.startsWith('Rand per ')) return 'base-per-unit';
  if (name.endsWith(' per Rand')) return 'units-per-base';
  throw new Error(`SARB series ${name}: neither rand per unit nor units per rand`);
}

/** How far back the latest fetch looks: a week spans any run of holidays the SARB observes. */
const LATEST_DAYS = 7;

/**
 * South African Reserve Bank: the weighted average of the banks' rates at about 10:30, rand per 1
 * US dollar, pound and euro, and units of 20 more currencies per 1 rand, each stored as written
 * (`termsByCode`) and divided exactly when served. One JSON document per series:
 * `[{Period, Timeseries, Value}]`, newest first, `Value` a JSON number (null when there is none).
 */
export const sarb: SourceAdapter = {
  id: 'sarb',
  name: 'South African Reserve Bank',
  base: 'ZAR',
  terms: 'base-per-unit',
  termsByCode: new Map(SERIES.filter(({ name }) => termsOf(name) !== 'base-per-unit').map(({ code, name }) => [code, termsOf(name)])),
  country: 'ZA',
  rateType: 'weighted average',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: 'AUD BRL BWP CAD CHF CNY DKK EUR GBP HKD ILS INR JPY KES KRW MWK NOK NZD SEK THB TWD USD ZAR ZMW'.split(' '),
  homepage: 'https://www.resbank.co.za/en/home/what-we-do/statistics/key-statistics/selected-historical-rates',
  schedule: {
    localTime: '11:00',
    timeZone: 'Africa/Johannesburg',
    weekdays: [1, 2, 3, 4, 5],
    note: "weighted average of the banks' daily rates at approximately 10:30 am, each business day",
  },
  // The API takes a series and a range of days, not "latest": the latest is the past week's range.
  urls: (range?: DayRange) => {
    const { from, to } = range ?? recentDays(LATEST_DAYS);
    return SERIES.map(({ series }) => `${SERIES_API}/${series}/${from}T00:00:00/${to}T00:00:00`);
  },
  parse: async (bytes, origin) => parseSarb(bytes, origin),
};

function parseSarb(bytes: Buffer, origin: string): SourceDay[] {
  const observations = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, sarb.base);
  let name: string | undefined;
  observations.forEach((entry, i) => {
    const at = () => `${origin}: observation #${i + 1}`;
    const observation = objectValue(entry, at);
    const period = stringValue(observation['Period'], () => `${at()} "Period"`);
    // Midnight of the day, as the API writes every daily period.
    const date = /^(\d{4}-\d{2}-\d{2})T00:00:00$/.exec(period)?.[1];
    if (date === undefined) throw new IngestFormatError(`${at()}: invalid Period ${showValue(period)} (expected YYYY-MM-DDT00:00:00)`);
    collector.day(date, `observation #${i + 1}`);
    const series = stringValue(observation['Timeseries'], () => `${origin}: ${date} "Timeseries"`);
    const code = BY_NAME.get(series)?.code;
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date}: series ${showValue(series)} is not one of the ${SERIES.length} series read`);
    if (name !== undefined && series !== name) throw new IngestFormatError(`${origin}: ${date}: series ${showValue(series)} in a document of ${showValue(name)}`);
    name = series;
    const value = observation['Value'];
    if (value === null) return; // not published that day: no value
    collector.add(date, code, numberText(value, () => `${origin}: ${date} currency=${code} "Value"`), '1');
  });
  return collector.result();
}

