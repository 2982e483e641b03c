import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bankDays, cbrDate, cbrValue, nbpValue } from '../helpers/bank-text-oracle.js';
import { expectJson } from '../helpers/http-expect.js';
import { divide, formatHalfUp, formatHalfUp6, multiply, parseDecimal, type Rational } from '../helpers/oracle.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * The per-source oracle (DECISIONS §15): for each of the 34 sources, its recorded
 * file is ingested as the server ingests it, then one recorded day is asked of it alone
 * (`source=ID`) as a rate set in a foreign base and as a dated conversion. Every expected figure is
 * read here from the bank's own text with a regular expression (the column its rules name as the
 * reference or middle one, nominals divided out), nothing from src/, and worked out with BigInt
 * rationals, rounded once half away from zero to 6 places (DECISIONS §3). A different column, a
 * nominal not divided out or an inverted quote gives other digits, and the test fails.
 */

const ONE: Rational = { num: 1n, den: 1n };
const AMOUNT = '1234.5678';
/** Grams per troy ounce, exactly (DECISIONS §15): metals quoted per gram are served per ounce. */
const GRAMS_PER_OUNCE = parseDecimal('31.1034768');

/**
 * One bank's case: its files (under test/fixtures/providers), its base, the day asked and three
 * codes it quotes that day; `value` is P(c), units of the base per one unit of c, read from the text.
 */
interface Bank {
  id: string;
  base: string;
  files: readonly string[];
  date: string;
  codes: readonly [string, string, string];
  value: (code: string) => Rational | undefined;
}

const text = (file: string, encoding: BufferEncoding = 'utf8') => readFileSync(join(PROVIDER_FIXTURES, file)).toString(encoding);
const more = (id: string, name: string) => `more/${id}/${name}`;
/** "57,0006" as 57.0006; "3,576.42" (thousands) as 3576.42 is `grouped`. */
const commaDecimal = (value: string) => parseDecimal(value.replace(',', '.'));
const grouped = (value: string) => parseDecimal(value.replaceAll(',', ''));
/** A figure written as a binary double ("7.8245000000000005"), back to the `places` the bank publishes. */
const published = (value: string, places: number) => parseDecimal(formatHalfUp(parseDecimal(value), places));
/** A quote in units of c per one unit of the base, as P(c). */
const inverse = (units: Rational) => divide(ONE, units);
/** The first match's groups of `pattern` in `body`, or undefined. */
const first = (body: string, pattern: string) => new RegExp(pattern, 's').exec(body) ?? undefined;

const BANKS: readonly Bank[] = [
  {
    // <Cube currency='USD' rate='1.1415'/>: units per 1 EUR.
    id: 'ecb', base: 'EUR', files: ['../ecb/eurofxref-daily.xml'], date: '2026-07-06', codes: ['USD', 'JPY', 'GBP'],
    value: (code) => {
      const found = first(text('../ecb/eurofxref-daily.xml'), `<Cube currency='${code}' rate='([0-9.]+)'/>`);
      return found && inverse(parseDecimal(found[1]!));
    },
  },
  {
    // Tables A and B: "mid", PLN per 1 unit.
    id: 'nbp', base: 'PLN', files: [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB], date: '2026-03-04', codes: ['USD', 'AFN', 'JPY'],
    value: (code) => nbpValue('2026-03-04', code),
  },
  {
    // "amount":100,…,"rate":6.311: CZK per `amount` units.
    id: 'cnb', base: 'CZK', files: [PROVIDER_FILES.cnb], date: '2026-03-04', codes: ['USD', 'HUF', 'JPY'],
    value: (code) => bankDays().get('cnb')!.get('2026-03-04')!.get(code),
  },
  {
    // Observations "FXUSDCAD": {"v": "1.3617"}: CAD per 1 unit.
    id: 'boc', base: 'CAD', files: [PROVIDER_FILES.boc], date: '2026-03-13', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => bankDays().get('boc')!.get('2026-03-13')!.get(code),
  },
  {
    // <Nominal>100</Nominal>…<Value>57,0006</Value>: RUB per `Nominal` units.
    id: 'cbr', base: 'RUB', files: [PROVIDER_FILES.cbr], date: cbrDate(), codes: ['USD', 'EUR', 'JPY'],
    value: (code) => cbrValue(code),
  },
  {
    // "rate":13.9116,"units":10: UAH per `units` units.
    id: 'nbu', base: 'UAH', files: [PROVIDER_FILES.nbu], date: '2026-03-04', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => bankDays().get('nbu')!.get('2026-03-04')!.get(code),
  },
  {
    // `,USD,001,1.1886,Foreign currency amount for 1 Euro.,2026-02-10`: units per 1 EUR.
    id: 'bdi', base: 'EUR', files: [more('bdi', 'bdi-daily-rates-vs-eur-2026-02-10.csv')], date: '2026-02-10', codes: ['USD', 'KYD', 'BTN'],
    value: (code) => {
      const found = first(text(more('bdi', 'bdi-daily-rates-vs-eur-2026-02-10.csv')), `,${code},\\d+,([0-9.]+),Foreign currency amount for 1 Euro\\.,2026-02-10`);
      return found && inverse(parseDecimal(found[1]!));
    },
  },
  {
    // Columns by series code (XUDLUSS: USD, XUDLERS: EUR, XUDLJYS: JPY), units per 1 GBP.
    id: 'boe', base: 'GBP', files: [more('boe', 'boe-xudl-spot-2026-03-17_2026-03-20.csv')], date: '2026-03-18', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const rows = text(more('boe', 'boe-xudl-spot-2026-03-17_2026-03-20.csv')).trim().split('\n').map((row) => row.trim().split(','));
      const column = rows[0]!.indexOf({ USD: 'XUDLUSS', EUR: 'XUDLERS', JPY: 'XUDLJYS' }[code] ?? '');
      const row = rows.find((cells) => cells[0] === '18 Mar 2026')!;
      return column > 0 ? inverse(parseDecimal(row[column]!)) : undefined;
    },
  },
  {
    // "Units" row names the columns; "18-Mar-2026" row: units per 1 AUD.
    id: 'rba', base: 'AUD', files: [more('rba', 'rba-f11.1-data.csv')], date: '2026-03-18', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const rows = text(more('rba', 'rba-f11.1-data.csv')).split('\n').map((row) => row.trim().split(','));
      const column = rows.find((cells) => cells[0] === 'Units')!.indexOf(code);
      const row = rows.find((cells) => cells[0] === '18-Mar-2026')!;
      return column > 0 ? inverse(parseDecimal(row[column]!)) : undefined;
    },
  },
  {
    // `B,JPY,NOK,SP,4,false,2,C,2026-03-18,6.5`: NOK per 10^UNIT_MULT units.
    id: 'nb', base: 'NOK', files: [more('nb', 'nb-exr-b-nok-sp-2026-03-16_2026-03-24.csv')], date: '2026-03-18', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const found = first(text(more('nb', 'nb-exr-b-nok-sp-2026-03-16_2026-03-24.csv')), `\nB,${code},NOK,SP,\\d+,\\w+,(\\d+),C,2026-03-18,([0-9.]+)`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(String(10 ** Number(found[1]))));
    },
  },
  {
    // "seriesId":"SEKUSDPMI","date":"2026-03-25","value":9.1: SEK per 1 unit.
    id: 'rb', base: 'SEK', files: [more('rb', 'rb-group130-2026-03-24_2026-03-27.json')], date: '2026-03-25', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const found = first(text(more('rb', 'rb-group130-2026-03-24_2026-03-27.json')), `"seriesId":"SEK${code}PMI","date":"2026-03-25","value":([0-9.]+)`);
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // `USD;KBH;2026M03D04;636.7000`: DKK per 100 units.
    id: 'dnb', base: 'DKK', files: [more('dnb', 'dnb-dnvald-kbh-2025-03-03_2026-03-31.csv')], date: '2026-03-04', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const found = first(text(more('dnb', 'dnb-dnvald-kbh-2025-03-03_2026-03-31.csv')), `\n${code};KBH;2026M03D04;([0-9.]+)`);
      return found && divide(parseDecimal(found[1]!), parseDecimal('100'));
    },
  },
  {
    // <Cube date="2026-03-04">…<Rate currency="HUF" multiplier="100">1.3247</Rate>: RON per `multiplier` units.
    id: 'bnr', base: 'RON', files: [more('bnr', 'bnr-nbrfxrates2026.xml')], date: '2026-03-04', codes: ['USD', 'EUR', 'HUF'],
    value: (code) => {
      const day = first(text(more('bnr', 'bnr-nbrfxrates2026.xml')), '<Cube date="2026-03-04">(.*?)</Cube>')![1]!;
      const found = first(day, `<Rate currency="${code}"(?: multiplier="(\\d+)")?>([0-9.]+)</Rate>`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1] ?? '1'));
    },
  },
  {
    // &lt;Rate unit="100" curr="JPY"&gt;248,17: HUF per `unit` units, decimal comma.
    id: 'mnb', base: 'HUF', files: [more('mnb', 'mnb-exchange-rates-2025-03-24_2025-03-28.xml')], date: '2025-03-26', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const day = first(text(more('mnb', 'mnb-exchange-rates-2025-03-24_2025-03-28.xml')), '&lt;Day date="2025-03-26"&gt;(.*?)&lt;/Day&gt;')![1]!;
      const found = first(day, `&lt;Rate unit="(\\d+)" curr="${code}"&gt;([0-9,]+)&lt;/Rate&gt;`);
      return found && divide(commaDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // One file per currency; the closing PTAX sell rate "cotacaoVenda", BRL per 1 unit.
    id: 'bcb', base: 'BRL', files: ['USD', 'EUR', 'JPY'].map((code) => more('bcb', `bcb-ptax-${code}-2026-03-02_2026-03-06.json`)), date: '2026-03-04', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const found = first(text(more('bcb', `bcb-ptax-${code}-2026-03-02_2026-03-06.json`)), '"cotacaoVenda":([0-9.]+),"dataHoraCotacao":"2026-03-04 ');
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // The document's day (the rates' first day in force); "quantity":1000,…,"rate":7.096: GEL per `quantity` units.
    id: 'nbg', base: 'GEL', files: [more('nbg', 'nbg-currencies-req-2026-03-03.json')], date: '2026-03-03', codes: ['USD', 'EUR', 'AMD'],
    value: (code) => {
      const body = text(more('nbg', 'nbg-currencies-req-2026-03-03.json'));
      assert.match(body, /^\[\{"date":"2026-03-03T00:00:00.000Z"/);
      const found = first(body, `"code":"${code}","quantity":(\\d+),"rateFormated":"[^"]*","diffFormated":"[^"]*","rate":([0-9.]+)`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // <title>AMD</title><description>12.72</description><quant>10</quant>: KZT per `quant` units.
    id: 'nbk', base: 'KZT', files: [more('nbk', 'nbk-get-rates-2026-04-02.xml')], date: '2026-04-02', codes: ['USD', 'EUR', 'AMD'],
    value: (code) => {
      const found = first(text(more('nbk', 'nbk-get-rates-2026-04-02.xml')), `<title>${code}</title>\\s*<description>([0-9.]+)</description>\\s*<quant>(\\d+)</quant>`);
      return found && divide(parseDecimal(found[1]!), parseDecimal(found[2]!));
    },
  },
  {
    // "Cur_Abbreviation":"AMD","Cur_Scale":1000,…,"Cur_OfficialRate":7.8014: BYN per `Cur_Scale` units.
    id: 'nbrb', base: 'BYN', files: [more('nbrb', 'nbrb-rates-daily-2026-03-17.json')], date: '2026-03-17', codes: ['USD', 'EUR', 'AMD'],
    value: (code) => {
      const found = first(text(more('nbrb', 'nbrb-rates-daily-2026-03-17.json')), `"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"${code}","Cur_Scale":(\\d+),"Cur_Name":"[^"]*","Cur_OfficialRate":([0-9.]+)`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // SDRs per currency unit, a column per day ("March 04, 2026"), a row per currency by its English name.
    id: 'imf', base: 'XDR', files: [more('imf', 'imf-rms-sdrcv-2026-03.tsv')], date: '2026-03-04', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const rows = text(more('imf', 'imf-rms-sdrcv-2026-03.tsv')).split('\n').map((row) => row.trimEnd().split('\t'));
      const header = rows.find((cells) => cells[0] === 'Currency' && cells.includes('March 04, 2026'))!;
      const name = { USD: 'U.S. dollar', EUR: 'Euro', JPY: 'Japanese yen' }[code];
      const row = rows.slice(rows.indexOf(header)).find((cells) => cells[0] === name);
      return row && parseDecimal(row[header.indexOf('March 04, 2026')]!);
    },
  },
  {
    // {"end_of_day":"2026-02-26","usd":7.8245000000000005,…}: HKD per 1 unit, doubles of figures of at most 8 places.
    id: 'hkma', base: 'HKD', files: [more('hkma', 'hkma-er-eeri-daily-2026-02-25_2026-02-28.json')], date: '2026-02-26', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const record = first(text(more('hkma', 'hkma-er-eeri-daily-2026-02-25_2026-02-28.json')), '\\{"end_of_day":"2026-02-26",([^}]*)\\}')![1]!;
      const found = first(record, `"${code.toLowerCase()}":([0-9.]+)`);
      return found && published(found[1]!, 8);
    },
  },
  {
    // One series per file, "Rand per Euro" … "Value":19.7408: ZAR per 1 unit.
    id: 'sarb', base: 'ZAR', files: ['usd', 'gbp', 'eur'].map((code) => more('sarb', `sarb-${{ usd: 'EXCX135D-USD', gbp: 'EXCZ001D-GBP', eur: 'EXCZ002D-EUR' }[code]}-2026-03-24_2026-03-27.json`)), date: '2026-03-26', codes: ['USD', 'GBP', 'EUR'],
    value: (code) => {
      const series = { USD: 'EXCX135D-USD', GBP: 'EXCZ001D-GBP', EUR: 'EXCZ002D-EUR' }[code];
      if (series === undefined) return undefined;
      const found = first(text(more('sarb', `sarb-${series}-2026-03-24_2026-03-27.json`)), '"Period":"2026-03-26T00:00:00","Timeseries":"Rand per [^"]*","Description":"[^"]*","Value":([0-9.]+)');
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // "Ccy":"IDR",…,"Nominal":"10","Rate":"7.21",…,"Date":"02.04.2026": UZS per `Nominal` units.
    id: 'cbu', base: 'UZS', files: [more('cbu', 'cbu-all-2026-04-02.json')], date: '2026-04-02', codes: ['USD', 'EUR', 'IDR'],
    value: (code) => {
      const found = first(text(more('cbu', 'cbu-all-2026-04-02.json')), `"Ccy":"${code}"[^}]*?"Nominal":"(\\d+)","Rate":"([0-9.]+)","Diff":"[^"]*","Date":"02\\.04\\.2026"`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // "taxa":1060.8582,…,"tipoCambio":"M","data":"2026-05-19",…,"codigoMoeda":"EUR": AOA per 1 unit, the reference (middle) rate.
    id: 'bna', base: 'AOA', files: [more('bna', 'bna-taxa-ref-ALL-2026-05-18_2026-05-21.json')], date: '2026-05-19', codes: ['EUR', 'CHF', 'DKK'],
    value: (code) => {
      const found = first(text(more('bna', 'bna-taxa-ref-ALL-2026-05-18_2026-05-21.json')), `"taxa":([0-9.]+),"descricaoTipoCambio":"[^"]*","tipoCambio":"M","data":"2026-05-19","designacaoMoeda":"[^"]*","codigoMoeda":"${code}"`);
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // "tipoCotizacion": ARS per 1 unit, or per the units its description names ("(C/1.000 UNIDADES)").
    id: 'bcra', base: 'ARS', files: [more('bcra', 'bcra-cotizaciones-2026-03-20.json')], date: '2026-03-20', codes: ['USD', 'EUR', 'VND'],
    value: (code) => {
      const found = first(text(more('bcra', 'bcra-cotizaciones-2026-03-20.json')), `"codigoMoneda":"${code}","descripcion":"([^"]*)","tipoPase":[0-9.]+,"tipoCotizacion":([0-9.]+)`);
      if (!found) return undefined;
      const units = /\(C\/([\d.]+) UNIDADES\)/.exec(found[1]!)?.[1]?.replace('.', '') ?? '1';
      return divide(parseDecimal(found[2]!), parseDecimal(units));
    },
  },
  {
    // {"RATE_DATE":"2026-05-21","USD":"3,576.42",…}: MNT per 1 unit, thousands grouped.
    id: 'bom', base: 'MNT', files: [more('bom', 'bom-currency-rate-movement-2026-05-19_2026-05-22.json')], date: '2026-05-21', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const day = first(text(more('bom', 'bom-currency-rate-movement-2026-05-19_2026-05-22.json')), '\\{"RATE_DATE":"2026-05-21",([^}]*)\\}')![1]!;
      const found = first(day, `"${code}":"([0-9.,]+)"`);
      return found && grouped(found[1]!);
    },
  },
  {
    // <CharCode>USD</CharCode><Nominal>1</Nominal>…<Value>17.6124</Value>: MDL per `Nominal` units; gold per gram.
    id: 'nbm', base: 'MDL', files: [more('nbm', 'nbm-official-rates-2026-04-07.xml'), more('nbm', 'nbm-metal-rates-2026-04-07.xml')], date: '2026-04-07', codes: ['USD', 'EUR', 'XAU'],
    value: (code) => {
      const file = code === 'XAU' ? 'nbm-metal-rates-2026-04-07.xml' : 'nbm-official-rates-2026-04-07.xml';
      const found = first(text(more('nbm', file)), `<CharCode>${code}</CharCode>\\s*<Nominal>(\\d+)</Nominal>\\s*<Name>([^<]*)</Name>\\s*<Value>([0-9.]+)</Value>`);
      if (!found) return undefined;
      const perUnit = divide(parseDecimal(found[3]!), parseDecimal(found[1]!));
      return found[2]!.startsWith('Gram ') ? multiply(perUnit, GRAMS_PER_OUNCE) : perUnit;
    },
  },
  {
    // The "miðgengi" (middle) series of each currency by its Icelandic name; ISK per 1 unit.
    id: 'sbi', base: 'ISK', files: [more('sbi', 'sbi-group9-2026-03-24_2026-03-27.xml')], date: '2026-03-25', codes: ['USD', 'EUR', 'GBP'],
    value: (code) => {
      const name = { USD: 'Bandaríkjadalur', EUR: 'Evra', GBP: 'Sterlingspund' }[code];
      const series = first(text(more('sbi', 'sbi-group9-2026-03-24_2026-03-27.xml')), `<Name><!\\[CDATA\\[${name}\\]\\]></Name><Description><!\\[CDATA\\[${name}, skráð miðgengi\\.\\]\\]></Description><TimeSeriesData>(.*?)</TimeSeriesData>`);
      const found = series && first(series[1]!, '<Date>3/25/2026 12:00:00 AM</Date><Value>([0-9.]+)</Value>');
      return found ? parseDecimal(found[1]!) : undefined;
    },
  },
  {
    // "date":"2026-05-19","weighted_average":"155.1",…,"code":"USD": ETB per 1 unit, the weighted average.
    id: 'nbe', base: 'ETB', files: [more('nbe', 'nbe-filter-exchange-rates-2026-05-19.json')], date: '2026-05-19', codes: ['USD', 'EUR', 'JPY'],
    value: (code) => {
      const found = first(text(more('nbe', 'nbe-filter-exchange-rates-2026-05-19.json')), `"date":"2026-05-19","weighted_average":"([0-9.]+)","currency":\\{"id":"[^"]*","name":"[^"]*","code":"${code}"\\}`);
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // "datum_primjene":"2023-01-04",…,"srednji_tecaj":"1,569300","valuta":"AUD": units per 1 EUR, the middle rate.
    id: 'hnb', base: 'EUR', files: [more('hnb', 'hnb-tecajn-eur-v3-2023-01-02_2023-01-06.json')], date: '2023-01-04', codes: ['USD', 'GBP', 'JPY'],
    value: (code) => {
      const found = first(text(more('hnb', 'hnb-tecajn-eur-v3-2023-01-02_2023-01-06.json')), `"datum_primjene":"2023-01-04"[^}]*?"srednji_tecaj":"([0-9,]+)","valuta":"${code}"`);
      return found && inverse(commaDecimal(found[1]!));
    },
  },
  {
    // <ISO>IRR</ISO><Amount>100</Amount><Rate>0.028677</Rate>: AMD per `Amount` units.
    id: 'cba', base: 'AMD', files: [more('cba', 'cba-latest-2026-03-18.xml')], date: '2026-03-18', codes: ['USD', 'EUR', 'IRR'],
    value: (code) => {
      const body = text(more('cba', 'cba-latest-2026-03-18.xml'));
      assert.match(body, /<CurrentDate>2026-03-18T00:00:00<\/CurrentDate>/);
      const found = first(body, `<ISO>${code}</ISO><Amount>(\\d+)</Amount><Rate>([0-9.]+)</Rate>`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // <ValCurs Date="2026-05-19">…<CharCode>KZT</CharCode><Nominal>10</Nominal>…<Value>: TJS per `Nominal` units.
    id: 'nbt', base: 'TJS', files: [more('nbt', 'nbt-kurs-2026-05-19.xml')], date: '2026-05-19', codes: ['USD', 'EUR', 'KZT'],
    value: (code) => {
      const body = text(more('nbt', 'nbt-kurs-2026-05-19.xml'));
      assert.match(body, /<ValCurs Date="2026-05-19"/);
      const found = first(body, `<CharCode>${code}</CharCode>\\s*<Nominal>(\\d+)</Nominal>\\s*<Name>[^<]*</Name>\\s*<Value>([0-9.]+)</Value>`);
      return found && divide(parseDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // One answer per currency (the dollar labelled "DLS.", the euro "EURO"); TCC = TCV, UYU per 1 unit.
    id: 'bcu', base: 'UYU', files: ['USD', 'EUR', 'BRL'].map((code) => more('bcu', `bcu-cotizaciones-${code}-2026-03-27_2026-03-31.xml`)), date: '2026-03-30', codes: ['USD', 'EUR', 'BRL'],
    value: (code) => {
      const label = { USD: 'DLS\\.', EUR: 'EURO' }[code] ?? code;
      const found = first(text(more('bcu', `bcu-cotizaciones-${code}-2026-03-27_2026-03-31.xml`)), `<Fecha>2026-03-30</Fecha>\\s*<Moneda>\\d+</Moneda>\\s*<Nombre>[^<]*</Nombre>\\s*<CodigoISO>${label}</CodigoISO>\\s*<Emisor>[^<]*</Emisor>\\s*<TCC>([0-9.]+)</TCC>\\s*<TCV>([0-9.]+)</TCV>`);
      assert.ok(!found || found[1] === found[2], `bcu ${code}: one rate, buying equal to selling`);
      return found && parseDecimal(found[1]!);
    },
  },
  {
    // <CurrencyRates … Date="24.05.2026"><Currency ISOCode="KZT"><Nominal>1</Nominal><Value>0,1859</Value>: KGS per `Nominal` units.
    id: 'nbkr', base: 'KGS', files: [more('nbkr', 'nbkr-daily-2026-05-24.xml')], date: '2026-05-24', codes: ['USD', 'EUR', 'KZT'],
    value: (code) => {
      const body = text(more('nbkr', 'nbkr-daily-2026-05-24.xml'), 'latin1');
      assert.match(body, /Date="24\.05\.2026"/);
      const found = first(body, `<Currency ISOCode="${code}">\\s*<Nominal>(\\d+)</Nominal>\\s*<Value>([0-9,]+)</Value>`);
      return found && divide(commaDecimal(found[2]!), parseDecimal(found[1]!));
    },
  },
  {
    // "currency_code":"INR","unit":100,"rate":{"date":"2026-03-19",…,"middle_rate":4.2244000000000002}:
    // MYR per `unit` units, the middle rate, doubles of figures of 4 places.
    id: 'bnm', base: 'MYR', files: [more('bnm', 'bnm-latest-0900-2026-03-19.json')], date: '2026-03-19', codes: ['USD', 'EUR', 'INR'],
    value: (code) => {
      const found = first(text(more('bnm', 'bnm-latest-0900-2026-03-19.json')), `"currency_code":"${code}","unit":(\\d+),"rate":\\{"date":"2026-03-19","buying_rate":[0-9.]+,"selling_rate":[0-9.]+,"middle_rate":([0-9.]+)\\}`);
      return found && divide(published(found[2]!, 4), parseDecimal(found[1]!));
    },
  },
];

/** P(c) with the bank's base at 1; undefined where the bank has no figure. */
const valueOf = (bank: Bank, code: string) => (code === bank.base ? ONE : bank.value(code));

test('when each of the 34 sources is asked alone for a recorded day, then rates and a conversion equal its own text, to the last digit', async (t) => {
  assert.equal(new Set(BANKS.map(({ id }) => id)).size, 34, 'one case per source');
  const server = await startTestApp(t, {
    ingestSources: BANKS.flatMap(({ id, files }) => files.map((file) => ({ source: id, file: join(PROVIDER_FIXTURES, file) }))),
    env: { SOURCES: 'all' },
  });
  const served = ((await read(await server.get('/api/v1/sources'))).json as { id: string; base: string }[]).map(({ id, base }) => `${id} ${base}`);
  assert.deepEqual([...served].sort(), BANKS.map(({ id, base }) => `${id} ${base}`).sort(), 'every source is enabled, with the base the case names');

  for (const bank of BANKS) {
    await t.test(`${bank.id}: ${bank.date}, ${bank.codes.join(', ')}`, async () => {
      const [base, a, b] = bank.codes;
      for (const code of [...bank.codes, bank.base]) assert.ok(valueOf(bank, code), `${bank.id} quotes ${code} on ${bank.date} in its text`);
      // In a foreign base, so that every figure is a cross P(base) / P(c) through the bank's own numbers.
      const symbols = [a, b, bank.base];
      const rates = Object.fromEntries([...symbols].sort().map((code) => [code, formatHalfUp6(divide(valueOf(bank, base)!, valueOf(bank, code)!))]));
      await expectJson(server.get(`/api/v1/rates/${bank.date}?source=${bank.id}&base=${base}&symbols=${symbols.join(',')}`), 200, { base, date: bank.date, rates }, bank.id);

      const rate = divide(valueOf(bank, a)!, valueOf(bank, b)!);
      await expectJson(server.get(`/api/v1/convert?source=${bank.id}&from=${a}&to=${b}&amount=${AMOUNT}&date=${bank.date}`), 200, {
        from: a, to: b, amount: AMOUNT, result: formatHalfUp6(multiply(parseDecimal(AMOUNT), rate)), rate: formatHalfUp6(rate), date: bank.date,
      }, `${bank.id} convert`);
    });
  }
});
