import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { childText, readBankXml, xmlNode, xmlNodes } from './bank-xml.js';
import { DayCollector } from './day-collector.js';
import { recentDays } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';

const SERIES_FEED = 'https://sedlabanki.is/xmltimeseries/Default.aspx';

/** Group 9 (the official reference rates) and group 7 (further mid rates) make the source. */
const GROUPS = ['9', '7'] as const;

/** How far back the latest fetch looks: the feed takes only ranges; a week spans any holidays. */
const LATEST_DAYS = 7;

/** The series' Icelandic names (the feed carries no ISO code), mid-rate series only. */
const CODES: Readonly<Record<string, string>> = {
  'Bandaríkjadalur': 'USD', 'Dönsk króna': 'DKK', 'Evra': 'EUR', 'Japanskt jen': 'JPY', 'Kanadadalur': 'CAD',
  'Norsk króna': 'NOK', 'Sérstök dráttarréttindi- SDR': 'XDR', 'Sterlingspund': 'GBP', 'Svissneskur franki': 'CHF',
  'Sænsk króna': 'SEK', 'Kínverskt júan': 'CNY', 'Pólskt slot': 'PLN', 'Nígerísk næra': 'NGN', 'Tævanskur dalur': 'TWD',
  'Suðurkóreskt vonn': 'KRW', 'Súrinamskur dalur': 'SRD', 'Ástralíudalur': 'AUD', 'Ný-Sjálenskur dalur': 'NZD',
  'Hong Kong dalur': 'HKD', 'Ungversk forinta': 'HUF', 'Ísraelskur sikill': 'ILS', 'Suður-Afrískt rand': 'ZAR',
  'Singapúrskur dalur': 'SGD', 'Mexíkóskur pesi': 'MXN', 'Tyrknesk líra': 'TRY', 'Indversk rúpía': 'INR',
  'Tékknesk króna': 'CZK', 'Brasilískt ríal': 'BRL', 'Tælenskt bat': 'THB', 'Jamaískur dalur': 'JMD',
  'Sádi-arabískt ríal': 'SAR', 'Kúveiskur denari': 'KWD',
};

/** A mid-rate series says so: "Evra, skráð miðgengi." (buying: kaupgengi, selling: sölugengi). */
const MID = /, skráð miðgengi\.$/;

/** "3/24/2026 12:00:00 AM": month/day/year at midnight. */
const ENTRY_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) 12:00:00 AM$/;

/**
 * Seðlabanki Íslands: mid rates (miðgengi), ISK per 1 unit, from its XML time series: a `Group`
 * of `TimeSeries`, each named in Icelandic with `Entry` rows of `Date` and `Value`. Buying and
 * selling series, and the many legacy ones (ATS, BEF, …) with no entries, are not read.
 */
export const sbi: SourceAdapter = {
  id: 'sbi',
  name: 'Seðlabanki Íslands',
  base: 'ISK',
  terms: 'base-per-unit',
  country: 'IS',
  rateType: 'mid rate',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF ILS INR ISK JMD JPY KRW KWD MXN NGN NOK NZD',
    'PLN SAR SEK SGD SRD THB TRY TWD USD XDR ZAR',
  ].join(' ').split(' '),
  homepage: 'https://www.sedlabanki.is/hagtolur/opinbert-gengi/',
  schedule: {
    localTime: '11:00',
    timeZone: 'Atlantic/Reykjavik',
    weekdays: [1, 2, 3, 4, 5],
    note: 'official reference rates registered each business day',
  },
  urls: (range?: DayRange) => {
    const { from, to } = range ?? recentDays(LATEST_DAYS);
    return GROUPS.map((group) => `${SERIES_FEED}?DagsFra=${from}&DagsTil=${to}&GroupID=${group}&Type=xml`);
  },
  parse: async (bytes, origin) => parseSbi(bytes, origin),
};

function parseSbi(bytes: Buffer, origin: string): SourceDay[] {
  const group = xmlNode(readBankXml(bytes, origin, ['TimeSeries', 'Entry'])['Group']);
  if (!group) throw new IngestFormatError(`${origin}: root element is not Group`);
  const collector = new DayCollector(origin, sbi.base);
  xmlNodes(group, 'TimeSeries').forEach((series, i) => {
    const entries = xmlNodes(xmlNode(series?.['TimeSeriesData']), 'Entry');
    const description = childText(series, 'Description') ?? '';
    if (entries.length === 0 || !MID.test(description)) return;
    const name = childText(series, 'Name') ?? '';
    const code = CODES[name];
    if (code === undefined) throw new IngestFormatError(`${origin}: series #${i + 1}: unknown mid-rate series ${showValue(name)}`);
    entries.forEach((entry, j) => {
      const written = childText(entry, 'Date') ?? '';
      const date = isoFromEntry(written);
      if (date === undefined) throw new IngestFormatError(`${origin}: ${code} entry #${j + 1} has an invalid date ${showValue(written)} (expected M/D/YYYY 12:00:00 AM)`);
      const value = childText(entry, 'Value');
      if (value === undefined) throw new IngestFormatError(`${origin}: ${date} currency=${code} lacks its Value`);
      collector.add(date, code, value, '1');
    });
  });
  return collector.result();
}

function isoFromEntry(text: string): string | undefined {
  const [, month = '', day = '', year = ''] = ENTRY_DATE.exec(text) ?? [];
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isValidIsoDate(iso) ? iso : undefined;
}
