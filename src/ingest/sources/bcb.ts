import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { daysAgo, today } from './day-range.js';
import { arrayValue, numberText, objectValue, readExactJson, stringValue } from './exact-json.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const PTAX = 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata';

/** The currencies PTAX publishes, one request each. */
const CURRENCIES = ['AUD', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD'];

/** The closing bulletin: the day's PTAX rate (the opening and intermediate ones are not read). */
const CLOSING = 'Fechamento';

/**
 * Banco Central do Brasil, PTAX (OData JSON `{value: [{cotacaoCompra, cotacaoVenda,
 * dataHoraCotacao, tipoBoletim, …}]}`): BRL per 1 unit; the closing PTAX sell rate
 * (`cotacaoVenda`) is the reference. A document holds one currency, named only in its request,
 * so the code is read from the origin: the URL's `@moeda='EUR'`, or a file named bcb-ptax-EUR-….
 */
export const bcb: SourceAdapter = {
  id: 'bcb',
  name: 'Banco Central do Brasil',
  base: 'BRL',
  terms: 'base-per-unit',
  country: 'BR',
  rateType: 'PTAX closing rate (sell)',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: ['AUD', 'BRL', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD'],
  homepage: 'https://www.bcb.gov.br/en/financialstability/exchange_rates',
  schedule: {
    localTime: '13:30',
    timeZone: 'America/Sao_Paulo',
    weekdays: [1, 2, 3, 4, 5],
    note: 'the closing PTAX bulletin, from four windows of market quotes, published after 13:00 Brasília time each business day',
  },
  // One request per currency; the latest is the week up to today.
  urls: (range?: DayRange) => {
    const from = range?.from ?? daysAgo(7);
    const to = range?.to ?? today();
    const day = (iso: string) => `%27${iso.slice(5, 7)}-${iso.slice(8)}-${iso.slice(0, 4)}%27`;
    return CURRENCIES.map(
      (code) =>
        `${PTAX}/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)` +
        `?$filter=tipoBoletim%20eq%20%27${CLOSING}%27&$format=json&@dataFinalCotacao=${day(to)}&@dataInicial=${day(from)}&@moeda=%27${code}%27`,
    );
  },
  parse: async (bytes, origin) => parseBcb(bytes, origin),
};

/** The currency a document is of, from its URL or recorded file name. */
function currencyOf(origin: string): string {
  const code = /@moeda=(?:%27|')([A-Z]{3})(?:%27|')/.exec(origin)?.[1] ?? /(?:^|[/\\])bcb-ptax-([A-Z]{3})-[^/\\]*$/.exec(origin)?.[1];
  if (code === undefined) throw new IngestFormatError(`${origin}: names no currency (a PTAX URL's @moeda, or a file named bcb-ptax-XXX-…)`);
  return code;
}

function parseBcb(bytes: Buffer, origin: string): SourceDay[] {
  const code = currencyOf(origin);
  const document = objectValue(readExactJson(bytes, origin), () => `${origin}: the document`);
  const quotes = arrayValue(document['value'], () => `${origin}: "value"`);
  const collector = new DayCollector(origin, bcb.base);
  quotes.forEach((entry, i) => {
    const at = () => `${origin}: quote #${i + 1}`;
    const quote = objectValue(entry, at);
    const stamp = stringValue(quote['dataHoraCotacao'], () => `${at()} "dataHoraCotacao"`);
    // "2026-03-02 13:09:26.433": the day, then the time of the bulletin.
    const date = stamp.slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(stamp) || !isValidIsoDate(date)) {
      throw new IngestFormatError(`${at()}: invalid dataHoraCotacao ${showValue(stamp)} (expected YYYY-MM-DD hh:mm:ss)`);
    }
    const where = () => `${origin}: ${date} currency=${code}`;
    const bulletin = stringValue(quote['tipoBoletim'], () => `${where()} "tipoBoletim"`);
    if (bulletin !== CLOSING) throw new IngestFormatError(`${where()}: bulletin ${showValue(bulletin)}, expected "${CLOSING}"`);
    collector.add(date, code, numberText(quote['cotacaoVenda'], () => `${where()} "cotacaoVenda"`), '1');
  });
  return collector.result();
}
