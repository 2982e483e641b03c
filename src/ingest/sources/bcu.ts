import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import type { SourceAdapter, SourceDay } from './source-adapter.js';

/** `CodigoISO` labels that are not ISO: the dollar (banknote rate, Moneda 2225) and the euro (1111). */
const LABELS: Readonly<Record<string, string>> = { 'DLS.': 'USD', EURO: 'EUR' };

/**
 * Banco Central del Uruguay (SOAP web service wsbcucotizaciones): UYU per 1 unit, `TCC` (buying)
 * equal to `TCV` (selling) for every currency it quotes, one rate; `ArbAct` (the arbitrage
 * against the dollar) is not read. An answer holds `datoscotizaciones.dato` rows, each with its
 * `Fecha`, for the currencies and days asked.
 */
export const bcu: SourceAdapter = {
  id: 'bcu',
  name: 'Banco Central del Uruguay',
  base: 'UYU',
  terms: 'base-per-unit',
  country: 'UY',
  rateType: 'official rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'ARS BRL CAD CHF CLP CNY COP DKK EUR GBP HKD HUF INR ISK JPY KRW MXN MYR NOK NZD PEN PYG',
    'RUB SEK TRY USD UYU ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.bcu.gub.uy/Estadisticas-e-Indicadores/Paginas/Cotizaciones.aspx',
  schedule: {
    localTime: '18:00',
    timeZone: 'America/Montevideo',
    weekdays: [1, 2, 3, 4, 5],
    note: 'closing rates of each business day',
  },
  // A SOAP service: Execute(Moneda numbers, FechaDesde, FechaHasta, Grupo) is POSTed here.
  urls: () => ['https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones'],
  parse: async (bytes, origin) => parseBcu(bytes, origin),
};

function parseBcu(bytes: Buffer, origin: string): SourceDay[] {
  const document = readBankXml(bytes, origin, ['datoscotizaciones.dato']);
  const body = xmlNode(xmlNode(document['Envelope'])?.['Body']);
  const salida = xmlNode(xmlNode(body?.['wsbcucotizaciones.ExecuteResponse'])?.['Salida']);
  if (!salida) throw new IngestFormatError(`${origin}: not a wsbcucotizaciones answer (no Envelope/Body/ExecuteResponse/Salida)`);
  const status = xmlNode(salida['respuestastatus']);
  if (childText(status, 'status') !== '1') {
    throw new IngestFormatError(`${origin}: the service answered status ${showValue(childText(status, 'status') ?? '')}: ${showValue(childText(status, 'mensaje') ?? '')}`);
  }
  const collector = new DayCollector(origin, bcu.base);
  xmlNodes(xmlNode(salida['datoscotizaciones']), 'datoscotizaciones.dato').forEach((row, i) => {
    const date = childText(row, 'Fecha') ?? '';
    collector.day(date, `row #${i + 1}`);
    const label = childText(row, 'CodigoISO');
    if (label === undefined) throw new IngestFormatError(`${origin}: ${date} row #${i + 1} has no CodigoISO`);
    const code = LABELS[label] ?? label;
    const where = `${origin}: ${date} currency=${code}`;
    const buying = childText(row, 'TCC');
    const selling = childText(row, 'TCV');
    if (buying === undefined || selling === undefined) throw new IngestFormatError(`${where} lacks its TCC or TCV`);
    // One rate is published as both; two different ones would leave no single rate to store.
    if (buying !== selling) throw new IngestFormatError(`${where}: buying ${showValue(buying)} and selling ${showValue(selling)} differ`);
    collector.add(date, code, buying, '1');
  });
  return collector.result();
}
