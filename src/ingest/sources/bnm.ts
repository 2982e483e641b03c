import { DayCollector } from './day-collector.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue, type JsonObject } from './exact-json.js';
import { publishedFigure } from './published-figure.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.bnm.gov.my/public/exchange-rate';

/** The API answers only a client that asks for its versioned media type. */
const ACCEPT = 'application/vnd.BNM.API.v1+json';

/** The morning session's rates (09:00), the first of the day. */
const SESSION = '0900';

/** Labels that are not the code they quote: the bank's "SDR" is the IMF's XDR. */
const LABELS: Readonly<Record<string, string>> = { SDR: 'XDR' };

/** Fractional digits BNM publishes its rates with ("4.2244 MYR per 100 INR"). */
const PUBLISHED_PLACES = 4;

/**
 * Bank Negara Malaysia (OpenAPI, session 0900): MYR per `unit` units (1 or 100) of each currency,
 * the `middle_rate` (buying and selling not read). The latest answer is an array of
 * `{currency_code, unit, rate: {date, …}}`; a month of one currency is `{currency_code, unit,
 * rate: [{date, …}]}`. The API writes each rate as a binary double at 17 significant digits
 * (5.3795000000000002): the published 4-decimal rate is recovered exactly, in decimal.
 */
export const bnm: SourceAdapter = {
  id: 'bnm',
  name: 'Bank Negara Malaysia',
  base: 'MYR',
  terms: 'base-per-unit',
  country: 'MY',
  rateType: 'middle rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AUD BND CAD CHF CNY EGP EUR GBP HKD IDR INR JPY KHR KRW MMK MYR NPR NZD PHP PKR SAR',
    'SGD THB TWD USD VND XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.bnm.gov.my/exchange-rates',
  schedule: {
    localTime: '09:30',
    timeZone: 'Asia/Kuala_Lumpur',
    weekdays: [1, 2, 3, 4, 5],
    note: 'interbank rates at 09:00, 12:00 and 17:00 each business day; the 09:00 session is read',
  },
  // A range is one request per currency and month it spans (the API takes a month, not a range).
  urls: (range?: DayRange) => {
    if (!range) return [`${API}?session=${SESSION}`];
    const months: string[] = [];
    let [year, month] = [Number(range.from.slice(0, 4)), Number(range.from.slice(5, 7))];
    while (`${year}-${String(month).padStart(2, '0')}` <= range.to.slice(0, 7)) {
      months.push(`year/${year}/month/${month}`);
      [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
    }
    const labels = new Map(Object.entries(LABELS).map(([label, code]) => [code, label]));
    return bnm.codes
      .filter((code) => code !== bnm.base)
      .flatMap((code) => months.map((path) => `${API}/${labels.get(code) ?? code}/${path}?session=${SESSION}`));
  },
  requests: (range?: DayRange) => bnm.urls(range).map((url) => ({ url, headers: { accept: ACCEPT } })),
  parse: async (bytes, origin) => parseBnm(bytes, origin),
};

function parseBnm(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const data = document['data'];
  const collector = new DayCollector(origin, bnm.base);
  const currencies = Array.isArray(data) ? data : [objectValue(data, () => `${origin}: "data"`)];
  currencies.forEach((item, i) => {
    const currency = objectValue(item, () => `${origin}: currency #${i + 1}`);
    const label = stringValue(currency['currency_code'], () => `${origin}: currency #${i + 1} "currency_code"`);
    const code = LABELS[label] ?? label;
    const unit = numberText(currency['unit'], () => `${origin}: currency=${code} "unit"`);
    const rates = Array.isArray(data) ? [objectValue(currency['rate'], () => `${origin}: currency=${code} "rate"`)] : arrayValue(currency['rate'], () => `${origin}: currency=${code} "rate"`);
    rates.forEach((entry, j) => addRate(collector, origin, code, unit, objectValue(entry, () => `${origin}: currency=${code} rate #${j + 1}`), j));
  });
  return collector.result();
}

function addRate(collector: DayCollector, origin: string, code: string, unit: string, rate: JsonObject, j: number): void {
  const date = stringValue(rate['date'], () => `${origin}: currency=${code} rate #${j + 1} "date"`);
  collector.day(date, `currency=${code} rate #${j + 1}`);
  const middle = rate['middle_rate'];
  if (middle === null) return; // not published that day: no value
  const where = () => `${origin}: ${date} currency=${code}`;
  collector.add(date, code, publishedFigure(numberText(middle, () => `${where()} "middle_rate"`), PUBLISHED_PLACES, 'BNM', where), unit);
}
