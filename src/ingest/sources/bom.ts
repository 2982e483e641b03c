import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import { arrayValue, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay, SourceRequest } from './source-adapter.js';

const ENDPOINT = 'https://www.mongolbank.mn/en/currency-rate-movement/data';

/** How far back the latest fetch looks: the endpoint takes only a range; a week spans any holidays. */
const LATEST_DAYS = 7;

/** Labels that are not the code they quote: the bank's "SDR" is the IMF's XDR. */
const LABELS: Readonly<Record<string, string>> = { SDR: 'XDR' };

/** "3,576.42": digits grouped by thousands with commas, a decimal point. */
const GROUPED = /^\d{1,3}(,\d{3})*(\.\d+)?$/;

/**
 * Bank of Mongolia (Mongolbank): official rates, MNT per 1 unit (gold and silver per troy
 * ounce, "SDR" for XDR), as strings with comma thousands. A document is `{success, data:
 * [{RATE_DATE, USD: "3,576.42", …}]}`, one object a day, newest first; an empty string is no value.
 */
export const bom: SourceAdapter = {
  id: 'bom',
  name: 'Bank of Mongolia',
  base: 'MNT',
  terms: 'base-per-unit',
  country: 'MN',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AUD BGN CAD CHF CNY CZK DKK EGP EUR GBP HKD HUF IDR INR JPY KPW KRW KWD KZT MNT MYR',
    'NOK NPR NZD PLN RUB SEK SGD THB TRY TWD UAH USD VND XAG XAU XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.mongolbank.mn/en/currency-rate-movement',
  schedule: {
    localTime: '16:00',
    timeZone: 'Asia/Ulaanbaatar',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official exchange rates set each business day',
  },
  urls: () => [ENDPOINT],
  // The endpoint answers a POSTed JSON {"startDate","endDate"} (YYYY-MM-DD), not a bare GET.
  requests: (range?: DayRange): SourceRequest[] => {
    const { from, to } = range ?? recentDays(LATEST_DAYS);
    return [{
      url: ENDPOINT,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ startDate: from, endDate: to }),
    }];
  },
  parse: async (bytes, origin) => parseBom(bytes, origin),
};

function parseBom(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  if (document['success'] !== true) throw new IngestFormatError(`${origin}: the answer is not marked "success": true`);
  const rows = arrayValue(document['data'], () => `${origin}: "data"`);
  const collector = new DayCollector(origin, bom.base);
  const seen = new Set<string>();
  rows.forEach((entry, i) => {
    const at = () => `${origin}: day #${i + 1}`;
    const row = objectValue(entry, at);
    const date = stringValue(row['RATE_DATE'], () => `${at()} "RATE_DATE"`);
    collector.day(date, `day #${i + 1}`);
    if (seen.has(date)) throw new IngestFormatError(`${origin}: day ${date} appears twice`);
    seen.add(date);
    for (const [label, cell] of Object.entries(row)) {
      if (label === 'RATE_DATE') continue;
      const where = `${origin}: ${date} currency=${label}`;
      const text = stringValue(cell, () => where);
      if (text === '') continue; // not published that day: no value
      if (!GROUPED.test(text)) throw new IngestFormatError(`${where}: invalid rate ${showValue(text)} (expected digits grouped by commas, e.g. 3,576.42)`);
      collector.add(date, LABELS[label] ?? label, text.replaceAll(',', ''), '1');
    }
  });
  return collector.result();
}
