import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const RANGE_API = 'https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo';

/** How far back the latest fetch looks: the API takes only ranges; a week spans any holidays. */
const LATEST_DAYS = 7;

/**
 * Codes the bank still lists after ISO 4217 withdrew them, by the first day they were no longer
 * current: BNA keeps deriving a figure for them (HRK from the euro at 7.5345), which is no market
 * rate of a currency that exists. Their values before that day are kept.
 */
const WITHDRAWN: Readonly<Record<string, string>> = {
  EEK: '2011-01-01',
  ZMK: '2013-01-01',
  STD: '2018-01-01',
  VEF: '2018-08-20',
  HRK: '2023-01-01',
};

/**
 * Labels that are not the code they quote. "XDRUSD" ("SPECIAL DRAWING RIGHTS TO US DOLLAR") is
 * kwanzas per 1 SDR: 1248.17479 against 913.116 for the dollar on 2026-05-19, the SDR's ~1.367 USD.
 */
const LABELS: Readonly<Record<string, string>> = { XDRUSD: 'XDR' };

/**
 * Quoted in another unit than kwanzas, so left out: "OURO" (XAU) is 4565.82 on 2026-05-19, US
 * dollars per troy ounce (kwanzas per ounce would be over four million).
 */
const NOT_IN_KWANZAS = new Set(['XAU']);

/**
 * Banco Nacional de Angola: reference rates ("Taxa de Referência - MEDIO", tipoCambio M), AOA per
 * 1 unit in `taxa`, a JSON number; `data` the day. A document is `{genericResponse: [...],
 * success}` for one currency (`moeda`) over a range of days.
 */
export const bna: SourceAdapter = {
  id: 'bna',
  name: 'Banco Nacional de Angola',
  base: 'AOA',
  terms: 'base-per-unit',
  country: 'AO',
  rateType: 'reference',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED ALL AOA ARS AUD BGN BMD BOB BRL BSD BWP CAD CDF CHF CNY CRC CUP CVE CZK DKK EGP ETB',
    'EUR GBP HKD HUF IDR ILS INR IQD JMD JPY KES KRW KWD KZT LBP LKR LSL MAD MXN MYR MZN NAD',
    'NGN NOK NZD PEN PKR PLN QAR RON RUB SAR SEK SGD THB TTD TWD TZS UAH USD VND XAF XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bna.ao/Conteudos/Mercados/listaTaxasCambioReferencia.aspx',
  schedule: {
    localTime: '17:00',
    timeZone: 'Africa/Luanda',
    weekdays: [1, 2, 3, 4, 5],
    note: 'reference rates (Taxa de Referência) set each business day',
  },
  // One request per currency ("moeda=XDRUSD" for the SDR), for a range of days. ("moeda=ALL", the
  // lek, happens to answer every currency; the same values, combined without conflict.)
  urls: (range?: DayRange) => {
    const { from, to } = range ?? recentDays(LATEST_DAYS);
    const labels = new Map(Object.entries(LABELS).map(([label, code]) => [code, label]));
    return bna.codes
      .filter((code) => code !== bna.base)
      .map((code) => `${RANGE_API}?datafim=${to}&datainicio=${from}&moeda=${labels.get(code) ?? code}&tipocambio=M`);
  },
  parse: async (bytes, origin) => parseBna(bytes, origin),
};

function parseBna(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  if (document['success'] !== true) throw new IngestFormatError(`${origin}: the answer is not marked "success": true`);
  const rows = arrayValue(document['genericResponse'], () => `${origin}: "genericResponse"`);
  const collector = new DayCollector(origin, bna.base);
  rows.forEach((entry, i) => {
    const at = () => `${origin}: row #${i + 1}`;
    const row = objectValue(entry, at);
    const date = stringValue(row['data'], () => `${at()} "data"`);
    collector.day(date, `row #${i + 1}`);
    const label = stringValue(row['codigoMoeda'], () => `${origin}: ${date} row #${i + 1} "codigoMoeda"`);
    const where = () => `${origin}: ${date} currency=${label}`;
    const kind = stringValue(row['tipoCambio'], () => `${where()} "tipoCambio"`);
    if (kind !== 'M') throw new IngestFormatError(`${where()}: tipoCambio ${showValue(kind)} is not the reference mid rate "M"`);
    const value = numberText(row['taxa'], () => `${where()} "taxa"`);
    const code = LABELS[label] ?? label;
    const withdrawn = WITHDRAWN[code];
    if (NOT_IN_KWANZAS.has(code) || (withdrawn !== undefined && date >= withdrawn)) return;
    collector.add(date, code, value, '1');
  });
  return collector.result();
}
