import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { arrayValue, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const GROUP = 'https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json';

/** A Valet series of the group: FX{CODE}CAD, CAD per 1 unit of CODE. */
const SERIES = /^FX([A-Z]{3})CAD$/;

/**
 * Bank of Canada (Valet API), group FX_RATES_DAILY: CAD per 1 unit, values as strings in
 * `observations: [{d, FXUSDCAD: {v}, …}]`. Other keys of the document (terms, series details)
 * describe the series and are not read.
 */
export const boc: SourceAdapter = {
  id: 'boc',
  name: 'Bank of Canada',
  base: 'CAD',
  terms: 'base-per-unit',
  country: 'CA',
  rateType: 'average of the day',
  cadence: 'daily',
  publishesFrom: '2017-01-03',
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BRL CAD CHF CNY EUR GBP HKD IDR INR JPY KRW MXN NOK NZD PEN RUB SAR SEK SGD TRY TWD',
    'USD ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bankofcanada.ca/rates/exchange/daily-exchange-rates/',
  schedule: {
    localTime: '16:30',
    timeZone: 'America/Toronto',
    weekdays: [1, 2, 3, 4, 5],
    note: 'published once each business day by 16:30 ET',
  },
  urls: (range?: DayRange) => [range ? `${GROUP}?start_date=${range.from}&end_date=${range.to}` : `${GROUP}?recent=1`],
  parse: async (bytes, origin) => parseBoc(bytes, origin),
};

function parseBoc(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const observations = arrayValue(document['observations'], () => `${origin}: "observations"`);
  const collector = new DayCollector(origin, boc.base);
  const seen = new Set<string>();
  observations.forEach((entry, i) => {
    const at = () => `${origin}: observation #${i + 1}`;
    const observation = objectValue(entry, at);
    const date = stringValue(observation['d'], () => `${at()} "d"`);
    collector.day(date, `observation #${i + 1}`);
    if (seen.has(date)) throw new IngestFormatError(`${origin}: observation of ${date} appears twice`);
    seen.add(date);
    for (const [key, cell] of Object.entries(observation)) {
      if (key === 'd') continue;
      const code = SERIES.exec(key)?.[1];
      if (code === undefined) throw new IngestFormatError(`${origin}: ${date}: unknown series ${showValue(key)} (expected FX…CAD)`);
      const where = () => `${origin}: ${date} currency=${code}`;
      collector.add(date, code, stringValue(objectValue(cell, where)['v'], () => `${where()} "v"`), '1');
    }
  });
  return collector.result();
}
