import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import { soapRequest } from './soap-request.js';
import type { DayRange, SourceAdapter, SourceDay, SourceRequest } from './source-adapter.js';

const SERVICE = 'https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones';

/** `CodigoISO` labels that are not ISO: the dollar (banknote rate, Moneda 2225) and the euro (1111). */
const LABELS: Readonly<Record<string, string>> = { 'DLS.': 'USD', EURO: 'EUR' };

/** The BCU's own number (`Moneda`) of each currency read: what a request asks for. */
const MONEDA: Readonly<Record<string, string>> = {
  ARS: '0500', BRL: '1000', CAD: '2309', CHF: '5900', CLP: '1300', CNY: '4150', COP: '5500', DKK: '1800', EUR: '1111',
  GBP: '2700', HKD: '5100', HUF: '4300', INR: '5700', ISK: '4900', JPY: '3600', KRW: '5300', MXN: '4200', MYR: '5600',
  NOK: '4600', NZD: '1490', PEN: '4000', PYG: '4800', RUB: '5400', SEK: '5800', TRY: '4400', USD: '2225', ZAR: '1620',
};

/** How far back the latest fetch looks: the service takes only a range; a week spans any holidays. */
const LATEST_DAYS = 7;

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
  urls: () => [SERVICE],
  // A SOAP service: Execute(Moneda, FechaDesde, FechaHasta, Grupo 0) POSTed once per currency, as
  // the recorded answers were asked for (one currency each).
  requests: (range?: DayRange): SourceRequest[] => {
    const { from, to } = range ?? recentDays(LATEST_DAYS);
    return Object.entries(MONEDA).map(([code, moneda]) => {
      const operation =
        `<wsbcucotizaciones.Execute xmlns="Cotiza"><Entrada><Moneda><item>${moneda}</item></Moneda>` +
        `<FechaDesde>${from}</FechaDesde><FechaHasta>${to}</FechaHasta><Grupo>0</Grupo></Entrada></wsbcucotizaciones.Execute>`;
      return soapRequest(SERVICE, operation, undefined, code);
    });
  },
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
