import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector, isoFromDotted } from './day-collector.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const SITE = 'https://bank.gov.ua/NBU_Exchange/exchange_site';

/**
 * National Bank of Ukraine, exchange_site: UAH per `units` units of each currency and banking
 * metal (XAU, XAG, XPT, XPD per troy ounce) and XDR, in `rate`; `exchangedate` DD.MM.YYYY is the
 * day the rate is in force (set the business day before, kept through weekends and holidays).
 * `rate_per_unit` is the bank's own division, not read: the stored value is rate / units, exact.
 * The latest publication comes from the statdirectory feed: the same rows, per 1 unit, no `units`.
 */
export const nbu: SourceAdapter = {
  id: 'nbu',
  name: 'National Bank of Ukraine',
  base: 'UAH',
  terms: 'base-per-unit',
  country: 'UA',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AUD AZN BDT CAD CHF CNY CZK DKK DZD EGP EUR GBP GEL HKD HUF IDR ILS INR JPY KRW KZT',
    'LBP MDL MXN MYR NOK NZD PLN RON RSD SAR SEK SGD THB TND TRY UAH USD VND XAG XAU XDR XPD',
    'XPT ZAR',
  ].join(' ').split(' '),
  homepage: 'https://bank.gov.ua/en/markets/exchangerates',
  schedule: {
    localTime: '16:00',
    timeZone: 'Europe/Kyiv',
    weekdays: [1, 2, 3, 4, 5],
    note: 'set at the end of each business day and published by 16:00, in force from the next day through weekends and holidays',
  },
  urls: (range?: DayRange) => {
    const compact = (day: string) => day.replaceAll('-', '');
    return [
      range
        ? `${SITE}?end=${compact(range.to)}&json=&order=asc&sort=exchangedate&start=${compact(range.from)}`
        : 'https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?json',
    ];
  },
  parse: async (bytes, origin) => parseNbu(bytes, origin),
};

function parseNbu(bytes: Buffer, origin: string): SourceDay[] {
  const rows = arrayValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const collector = new DayCollector(origin, nbu.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: row #${i + 1}`;
    const row = objectValue(entry, at);
    const dotted = stringValue(row['exchangedate'], () => `${at()} "exchangedate"`);
    const date = isoFromDotted(dotted);
    if (date === undefined) throw new IngestFormatError(`${at()}: invalid exchangedate ${showValue(dotted)} (expected DD.MM.YYYY)`);
    const code = stringValue(row['cc'], () => `${origin}: ${date} row #${i + 1} "cc"`);
    const where = () => `${origin}: ${date} currency=${code}`;
    // The latest-rates feed (statdirectory) quotes per 1 unit and has no `units`; an exchange_site
    // row (it has `rate_per_unit`) without them would be read per 1 of what it quotes per 10 or 1000.
    const perOne = row['units'] === undefined && row['rate_per_unit'] === undefined;
    const units = perOne ? '1' : numberText(row['units'], () => `${where()} "units"`);
    collector.add(date, code, numberText(row['rate'], () => `${where()} "rate"`), units);
  });
  return collector.result();
}
