import { DayCollector } from './day-collector.js';
import { eachDay } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const API = 'https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones';

/**
 * Rows not read: "CNH" (offshore yuan) is no ISO 4217 code and "REF" is the Com. A 3500
 * reference dollar, a second figure for USD; "VEB" was withdrawn in 2008, and which bolívar the
 * bank means by it cannot be told from the row.
 */
const NOT_READ = new Set(['CNH', 'REF', 'VEB']);

/** "MXP" is the bank's label for today's Mexican peso (0.056248 USD on 2026-03-19), ISO MXN. */
const LABELS: Readonly<Record<string, string>> = { MXP: 'MXN' };

/** A nominal the bank writes in the description: "DONG VIETNAM (C/1.000 UNIDADES)", per 1,000 dong. */
const PER_UNITS = /\(C\/([\d.]+) UNIDADES\)/;

/**
 * Banco Central de la República Argentina, Cotizaciones: ARS per 1 unit in `tipoCotizacion` (per
 * the nominal the description names, if any), a JSON number; `tipoPase` (USD per unit) is not
 * read. 0 means no quote: the peso's own row, and the metals, quoted only in dollars.
 */
export const bcra: SourceAdapter = {
  id: 'bcra',
  name: 'Banco Central de la República Argentina',
  base: 'ARS',
  terms: 'base-per-unit',
  country: 'AR',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'ARS AUD AWG BOB BRL CAD CHF CLP CNY COP CZK DKK EUR GBP HKD ILS INR JPY MXN NIO NOK NZD',
    'PEN PYG RSD RUB SEK SGD TRY USD UYU VND XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bcra.gob.ar/en/monetary-and-financial-statistics/exchange-statistics/',
  schedule: {
    localTime: '18:00',
    timeZone: 'America/Argentina/Buenos_Aires',
    weekdays: [1, 2, 3, 4, 5],
    note: 'exchange rates of the day, published each business day',
  },
  // The API answers one day (fecha=YYYY-MM-DD), the latest without one: a range is one request a day.
  urls: (range?: DayRange) => {
    if (!range) return [API];
    return eachDay(range).map((day) => `${API}?fecha=${day}`);
  },
  parse: async (bytes, origin) => parseBcra(bytes, origin),
};

function parseBcra(bytes: Buffer, origin: string): SourceDay[] {
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const results = objectValue(document['results'], () => `${origin}: "results"`);
  const date = stringValue(results['fecha'], () => `${origin}: "fecha"`);
  const collector = new DayCollector(origin, bcra.base);
  collector.day(date, '"fecha"');
  const rows = arrayValue(results['detalle'], () => `${origin}: ${date} "detalle"`);
  rows.forEach((entry, i) => {
    const row = objectValue(entry, () => `${origin}: ${date} row #${i + 1}`);
    const label = stringValue(row['codigoMoneda'], () => `${origin}: ${date} row #${i + 1} "codigoMoneda"`);
    const where = () => `${origin}: ${date} currency=${label}`;
    const value = numberText(row['tipoCotizacion'], () => `${where()} "tipoCotizacion"`);
    const description = stringValue(row['descripcion'], () => `${where()} "descripcion"`);
    if (NOT_READ.has(label) || /^0(\.0+)?$/.test(value)) return;
    const per = PER_UNITS.exec(description)?.[1]?.replaceAll('.', '') ?? '1';
    collector.add(date, LABELS[label] ?? label, value, per);
  });
  return collector.result();
}
