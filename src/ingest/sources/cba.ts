import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes, type XmlNode } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import { soapRequest } from './soap-request.js';
import type { DayRange, SourceAdapter, SourceDay, SourceRequest } from './source-adapter.js';

const SERVICE = 'https://api.cba.am/exchangerates.asmx';
const NAMESPACE = 'http://www.cba.am/';

/** Gold and silver, quoted in AMD per gram (60871 for gold on 2026-03-18, ~USD 161 a gram). */
const PER_GRAM = new Set(['XAU', 'XAG']);

/** Midnight of the day, Yerevan time written or not: "2026-03-02T00:00:00+04:00". */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00(\+04:00)?$/;

/**
 * Central Bank of Armenia (SOAP web service): AMD per `Amount` units (1, 10 or 100) in `Rate`,
 * gold and silver per gram (stored per troy ounce, times 31.1034768). Two answers are read:
 * ExchangeRatesLatest (`CurrentDate` and `Rates/ExchangeRate` rows) and
 * ExchangeRatesByDateRangeByISO (a .NET DataSet diffgram of `ExchangeRatesByRange` rows, each
 * with its `RateDate`).
 */
export const cba: SourceAdapter = {
  id: 'cba',
  name: 'Central Bank of Armenia',
  base: 'AMD',
  terms: 'base-per-unit',
  country: 'AM',
  rateType: 'average rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AMD AUD BRL BYN CAD CHF CNY CZK EUR GBP GEL HKD INR IRR JPY KGS KZT NOK NZD PLN RUB',
    'SEK SGD TJS UAH USD UZS XAG XAU XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.cba.am/en/SitePage/ExchangeArchive.aspx',
  schedule: {
    localTime: '17:00',
    timeZone: 'Asia/Yerevan',
    weekdays: [1, 2, 3, 4, 5],
    note: 'the average market exchange rates of each business day',
  },
  urls: () => [SERVICE],
  // The longest range asked in one call: a year, as other readers of the service ask it.
  maxRangeDays: 365,
  // A SOAP service: ExchangeRatesLatest for the latest, ExchangeRatesByDateRangeByISO (every code
  // read, DateFrom, DateTo) for a range.
  requests: (range?: DayRange): SourceRequest[] => {
    if (!range) return [soapRequest(SERVICE, `<ExchangeRatesLatest xmlns="${NAMESPACE}" />`, `${NAMESPACE}ExchangeRatesLatest`)];
    const codes = cba.codes.filter((code) => code !== cba.base).join(',');
    const operation =
      `<ExchangeRatesByDateRangeByISO xmlns="${NAMESPACE}"><ISOCodes>${codes}</ISOCodes>` +
      `<DateFrom>${range.from}</DateFrom><DateTo>${range.to}</DateTo></ExchangeRatesByDateRangeByISO>`;
    return [soapRequest(SERVICE, operation, `${NAMESPACE}ExchangeRatesByDateRangeByISO`, `${range.from}..${range.to}`)];
  },
  parse: async (bytes, origin) => parseCba(bytes, origin),
};

function parseCba(bytes: Buffer, origin: string): SourceDay[] {
  const document = readBankXml(bytes, origin, ['ExchangeRate', 'ExchangeRatesByRange']);
  const body = xmlNode(xmlNode(document['Envelope'])?.['Body']);
  if (!body) throw new IngestFormatError(`${origin}: not a SOAP answer (no Envelope/Body)`);
  const collector = new DayCollector(origin, cba.base);
  const latest = xmlNode(xmlNode(body['ExchangeRatesLatestResponse'])?.['ExchangeRatesLatestResult']);
  const range = xmlNode(body['ExchangeRatesByDateRangeByISOResponse'])?.['ExchangeRatesByDateRangeByISOResult'];
  if (latest) {
    const date = dayOf(childText(latest, 'CurrentDate'), () => `${origin}: CurrentDate`);
    collector.day(date, 'CurrentDate');
    xmlNodes(xmlNode(latest['Rates']), 'ExchangeRate').forEach((row, i) => addRow(collector, origin, date, row, i));
  } else if (range !== undefined) {
    const rows = xmlNodes(xmlNode(xmlNode(xmlNode(range)?.['diffgram'])?.['DocumentElement']), 'ExchangeRatesByRange');
    rows.forEach((row, i) => {
      const date = dayOf(childText(row, 'RateDate'), () => `${origin}: row #${i + 1} RateDate`);
      collector.day(date, `row #${i + 1}`);
      addRow(collector, origin, date, row, i);
    });
  } else {
    throw new IngestFormatError(`${origin}: neither an ExchangeRatesLatest nor an ExchangeRatesByDateRangeByISO answer`);
  }
  return collector.result();
}

function addRow(collector: DayCollector, origin: string, date: string, row: XmlNode | undefined, i: number): void {
  const code = childText(row, 'ISO');
  if (code === undefined) throw new IngestFormatError(`${origin}: ${date} row #${i + 1} has no ISO`);
  const where = () => `${origin}: ${date} currency=${code}`;
  const rate = childText(row, 'Rate');
  const amount = childText(row, 'Amount');
  if (rate === undefined || amount === undefined) throw new IngestFormatError(`${where()} lacks its Rate or Amount`);
  if (PER_GRAM.has(code)) collector.addPerGram(date, code, rate, amount);
  else collector.add(date, code, rate, amount);
}

function dayOf(text: string | undefined, what: () => string): string {
  const day = MIDNIGHT.exec(text ?? '')?.[1];
  if (day === undefined) throw new IngestFormatError(`${what()}: invalid ${showValue(text ?? '')} (expected YYYY-MM-DDT00:00:00)`);
  return day;
}
