import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const SERIES_API = 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations';

/**
 * The series read, by the name the bank gives each in `Timeseries` (the document carries no ISO
 * code). Only these three are quoted ZAR per unit; the SARB's other daily series ("Kenya:
 * Schilling per Rand", …) are units per 1 ZAR, which one source of `base-per-unit` terms cannot
 * hold without inverting them (1/x is not a finite decimal), so they are not read.
 */
const SERIES: Readonly<Record<string, { code: string; series: string }>> = {
  'Rand per US Dollar': { code: 'USD', series: 'EXCX135D' },
  'Rand per British Pound': { code: 'GBP', series: 'EXCZ001D' },
  'Rand per Euro': { code: 'EUR', series: 'EXCZ002D' },
};

/** How far back the latest fetch looks: a week spans any run of holidays the SARB observes. */
const LATEST_DAYS = 7;

/**
 * South African Reserve Bank: rand per 1 US dollar, pound and euro, the weighted average of the
 * banks' rates at about 10:30. One JSON document per series: `[{Period, Timeseries, Value}]`,
 * newest first, `Value` a JSON number (null when there is none).
 */
export const sarb: SourceAdapter = {
  id: 'sarb',
  name: 'South African Reserve Bank',
  base: 'ZAR',
  terms: 'base-per-unit',
  country: 'ZA',
  rateType: 'weighted average',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: ['EUR', 'GBP', 'USD', 'ZAR'],
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
    return Object.values(SERIES).map(({ series }) => `${SERIES_API}/${series}/${from}T00:00:00/${to}T00:00:00`);
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
    const code = SERIES[series]?.code;
    if (code === undefined) {
      throw new IngestFormatError(`${origin}: ${date}: series ${showValue(series)} is not one of the rand-per-unit series read (${Object.keys(SERIES).join(', ')})`);
    }
    if (name !== undefined && series !== name) throw new IngestFormatError(`${origin}: ${date}: series ${showValue(series)} in a document of ${showValue(name)}`);
    name = series;
    const value = observation['Value'];
    if (value === null) return; // not published that day: no value
    collector.add(date, code, numberText(value, () => `${origin}: ${date} currency=${code} "Value"`), '1');
  });
  return collector.result();
}

