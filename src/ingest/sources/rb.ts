import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { daysAgo } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const GROUP = 'https://api.riksbank.se/swea/v1/Observations/ByGroup/130';

/** A series of group 130: SEK{CODE}PMI, the mid rate, SEK per 1 unit of CODE. */
const SERIES = /^SEK([A-Z]{3})PMI$/;

/** The group's krona-per-krona series (always 1): the base itself, not read. */
const SEK_ITSELF = 'SEKETT';

/**
 * Sveriges Riksbank (SWEA API), group 130: SEK per 1 unit, mid rates (PMI series), as JSON
 * `[{seriesId, date, value}]` with one object per series and day. A null value is no value.
 */
export const rb: SourceAdapter = {
  id: 'rb',
  name: 'Sveriges Riksbank',
  base: 'SEK',
  terms: 'base-per-unit',
  country: 'SE',
  rateType: 'mid rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP',
    'PLN RON SEK SGD THB TRY USD ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.riksbank.se/en-gb/statistics/interest-rates-and-exchange-rates/',
  schedule: {
    localTime: '16:15',
    timeZone: 'Europe/Stockholm',
    weekdays: [1, 2, 3, 4, 5],
    note: 'mid rates set around 16:00 and published every Swedish banking day',
  },
  // The API's range is inclusive; the latest is the week up to today.
  urls: (range?: DayRange) => {
    const from = range?.from ?? daysAgo(7);
    return [range ? `${GROUP}/${from}/${range.to}` : `${GROUP}/${from}`];
  },
  parse: async (bytes, origin) => parseRb(bytes, origin),
};

function parseRb(bytes: Buffer, origin: string): SourceDay[] {
  const observations = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, rb.base);
  observations.forEach((entry, i) => {
    const at = () => `${origin}: observation #${i + 1}`;
    const observation = objectValue(entry, at);
    const date = stringValue(observation['date'], () => `${at()} "date"`);
    collector.day(date, `observation #${i + 1}`);
    const series = stringValue(observation['seriesId'], () => `${origin}: ${date} observation #${i + 1} "seriesId"`);
    if (series === SEK_ITSELF) return;
    const code = SERIES.exec(series)?.[1];
    if (code === undefined) throw new IngestFormatError(`${origin}: ${date}: unknown series ${showValue(series)} (expected SEK…PMI)`);
    const value = observation['value'];
    if (value === null) return;
    collector.add(date, code, numberText(value, () => `${origin}: ${date} currency=${code} "value"`), '1');
  });
  return collector.result();
}
