import { IngestFormatError } from '../parsed-day.js';
import { fromDecimalComma } from '../rate-value.js';
import { parseBankXml, readBankXml, xmlChildren, xmlNode, xmlText, type XmlNode } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import { soapRequest } from './soap-request.js';
import type { DayRange, SourceAdapter, SourceDay, SourceRequest } from './source-adapter.js';

const SERVICE = 'https://www.mnb.hu/arfolyamok.asmx';
const NAMESPACE = 'http://www.mnb.hu/webservices/';
const ACTIONS = 'http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/';

/** The currencies asked for, as in the recorded request. */
const REQUESTED = [
  'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'IDR', 'ILS', 'INR', 'ISK', 'JPY', 'KRW',
  'MXN', 'MYR', 'NOK', 'NZD', 'PHP', 'PLN', 'RON', 'RSD', 'RUB', 'SEK', 'SGD', 'THB', 'TRY', 'UAH', 'USD', 'ZAR',
];

/**
 * Magyar Nemzeti Bank, exchange-rate web service: HUF per `unit` units (1, or 100 for IDR, JPY,
 * KRW), with a decimal comma. The answer (a SOAP envelope, or the service's plain `string` for a
 * GET) carries the rates as escaped XML text: `<MNBExchangeRates><Day date><Rate unit curr>`.
 */
export const mnb: SourceAdapter = {
  id: 'mnb',
  name: 'Magyar Nemzeti Bank',
  base: 'HUF',
  terms: 'base-per-unit',
  country: 'HU',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP',
    'PLN RON RSD RUB SEK SGD THB TRY UAH USD ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.mnb.hu/en/monetary-policy/the-mpc/exchange-rates',
  schedule: {
    localTime: '12:15',
    timeZone: 'Europe/Budapest',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official rates set from the 11:00 market quotes and published around noon each Hungarian business day',
  },
  urls: () => [SERVICE],
  // A SOAP (WCF) service, POSTed as recorded: GetCurrentExchangeRates for the latest, GetExchangeRates
  // (startDate, endDate, currencyNames) for a range.
  requests: (range?: DayRange): SourceRequest[] => [
    range
      ? soapRequest(
          SERVICE,
          `<GetExchangeRates xmlns="${NAMESPACE}"><startDate>${range.from}</startDate><endDate>${range.to}</endDate>` +
            `<currencyNames>${REQUESTED.join(',')}</currencyNames></GetExchangeRates>`,
          `${ACTIONS}GetExchangeRates`,
        )
      : soapRequest(SERVICE, `<GetCurrentExchangeRates xmlns="${NAMESPACE}" />`, `${ACTIONS}GetCurrentExchangeRates`),
  ],
  parse: async (bytes, origin) => parseMnb(bytes, origin),
};

function parseMnb(bytes: Buffer, origin: string): SourceDay[] {
  const outer = readBankXml(bytes, origin, []);
  const inner = resultText(outer);
  if (inner === undefined) throw new IngestFormatError(`${origin}: no GetExchangeRatesResult (nor a service string) in the answer`);
  const document = parseBankXml(inner, `${origin} (result)`, ['Day', 'Rate']);
  const rootValue = document['MNBExchangeRates'] ?? document['MNBCurrentExchangeRates'];
  // An empty root (a range without a business day) parses as "": no days, not another format.
  const root = rootValue === '' ? {} : xmlNode(rootValue);
  if (!root) throw new IngestFormatError(`${origin}: the result's root is not MNBExchangeRates`);
  const collector = new DayCollector(origin, mnb.base);
  xmlChildren(root, 'Day').forEach((item, i) => {
    const day = xmlNode(item);
    const date = day?.['@_date'];
    if (typeof date !== 'string') throw new IngestFormatError(`${origin}: Day #${i + 1} has no date`);
    collector.day(date, `Day #${i + 1}`);
    xmlChildren(day, 'Rate').forEach((item, j) => {
      const rate = xmlNode(item);
      const code = rate?.['@_curr'];
      if (typeof code !== 'string') throw new IngestFormatError(`${origin}: ${date} Rate #${j + 1} has no curr`);
      const where = `${origin}: ${date} currency=${code}`;
      const value = xmlText(item);
      const unit = rate?.['@_unit'];
      if (value === undefined || typeof unit !== 'string') throw new IngestFormatError(`${where} lacks its rate or unit`);
      collector.add(date, code, fromDecimalComma(value, where, 'the MNB'), unit);
    });
  });
  return collector.result();
}

/** The escaped result: in a SOAP envelope's response element, or a GET's `<string>`. */
function resultText(outer: XmlNode): string | undefined {
  const envelope = xmlNode(outer['Envelope']);
  if (envelope) {
    const body = xmlNode(envelope['Body']);
    const response = xmlNode(body?.['GetExchangeRatesResponse']) ?? xmlNode(body?.['GetCurrentExchangeRatesResponse']);
    return xmlText(response?.['GetExchangeRatesResult'] ?? response?.['GetCurrentExchangeRatesResult']);
  }
  return xmlText(outer['string']);
}
