import { IngestFormatError } from '../parsed-day.js';
import { isValidIsoDate, showValue } from '../rate-value.js';
import { DayCollector } from './day-collector.js';
import { today } from './day-range.js';
import type { DayRange, SourceAdapter, SourceDay } from './source-adapter.js';
import { numberedLines, readUtf8, splitFields } from './text-table.js';

const REPORT = 'https://www.imf.org/external/np/fin/data/rms_mth.aspx';

/** The report read: SDRs per one unit of each currency. */
const TITLE = /^SDRs per Currency unit for [A-Z][a-z]+ \d{4}( Continued)?$/;

/** The report names currencies in English, not by code. */
const CODES: Readonly<Record<string, string>> = {
  'Chinese yuan': 'CNY', Euro: 'EUR', 'Japanese yen': 'JPY', 'U.K. pound': 'GBP', 'U.S. dollar': 'USD',
  'Algerian dinar': 'DZD', 'Australian dollar': 'AUD', 'Botswana pula': 'BWP', 'Brazilian real': 'BRL',
  'Brunei dollar': 'BND', 'Canadian dollar': 'CAD', 'Chilean peso': 'CLP', 'Czech koruna': 'CZK',
  'Danish krone': 'DKK', 'Indian rupee': 'INR', 'Israeli New Shekel': 'ILS', 'Korean won': 'KRW',
  'Kuwaiti dinar': 'KWD', 'Malaysian ringgit': 'MYR', 'Mauritian rupee': 'MUR', 'Mexican peso': 'MXN',
  'New Zealand dollar': 'NZD', 'Norwegian krone': 'NOK', 'Omani rial': 'OMR', 'Peruvian sol': 'PEN',
  'Philippine peso': 'PHP', 'Polish zloty': 'PLN', 'Qatari riyal': 'QAR', 'Saudi Arabian riyal': 'SAR',
  'Singapore dollar': 'SGD', 'Swedish krona': 'SEK', 'Swiss franc': 'CHF', 'Thai baht': 'THB',
  'Trinidadian dollar': 'TTD', 'U.A.E. dirham': 'AED', 'Uruguayan peso': 'UYU',
};

/** A column's day, "March 02, 2026". */
const DAY = /^([A-Z][a-z]+) (\d{2}), (\d{4})$/;

/**
 * International Monetary Fund, "SDRs per Currency unit" (monthly report, tab-separated, in
 * half-month blocks of days as columns): XDR per 1 unit of each currency, as written. "NA" is
 * no value. The representative-rate report (REP) is not read: it mixes units per USD with USD
 * per unit, "(1)"-marked, so half its figures would have to be inverted; the SDR values keep
 * every figure as the Fund writes it.
 */
export const imf: SourceAdapter = {
  id: 'imf',
  name: 'International Monetary Fund',
  base: 'XDR',
  terms: 'base-per-unit',
  country: null,
  rateType: 'SDR value',
  cadence: 'daily',
  publishesFrom: null,
  // What its recorded feed publishes, its base among them: the tracked set with this source enabled.
  codes: [
    'AED AUD BND BRL BWP CAD CHF CLP CNY CZK DKK DZD EUR GBP ILS INR JPY KRW KWD MUR MXN MYR',
    'NOK NZD OMR PEN PHP PLN QAR SAR SEK SGD THB TTD USD UYU XDR',
  ].join(' ').split(' '),
  homepage: 'https://www.imf.org/external/np/fin/data/param_rms_mth.aspx',
  schedule: {
    localTime: '18:00',
    timeZone: 'America/New_York',
    weekdays: [1, 2, 3, 4, 5],
    note: 'published daily except on IMF holidays or whenever the IMF is closed for business',
  },
  // The report covers the month of SelectDate up to it: a range is the months it spans.
  urls: (range?: DayRange) => {
    const url = (day: string) => `${REPORT}?SelectDate=${day}&reportType=SDRCV&tsvflag=Y`;
    if (!range) return [url(today())];
    const urls: string[] = [];
    let [year, month] = [Number(range.from.slice(0, 4)), Number(range.from.slice(5, 7))];
    const [endYear, endMonth] = [Number(range.to.slice(0, 4)), Number(range.to.slice(5, 7))];
    while (year < endYear || (year === endYear && month <= endMonth)) {
      const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
      urls.push(url(last));
      [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
    }
    return urls;
  },
  parse: async (bytes, origin) => parseImf(bytes, origin),
};

function parseImf(bytes: Buffer, origin: string): SourceDay[] {
  const lines = numberedLines(readUtf8(bytes, origin));
  const title = lines[0]?.text ?? '';
  if (!TITLE.test(title)) throw new IngestFormatError(`${origin}: line 1: title ${showValue(title)}, expected "SDRs per Currency unit for …"`);
  const collector = new DayCollector(origin, imf.base);
  let days: string[] | undefined;
  for (const { line, text } of lines.slice(1)) {
    const at = () => `${origin}: line ${line}`;
    if (text === 'Notes:') break;
    if (text === '') {
      days = undefined;
      continue;
    }
    if (TITLE.test(text)) continue;
    const fields = splitFields(text, '\t', at);
    if (fields[0] === 'Currency') {
      days = fields.slice(1).map((column) => isoFromImf(column, at));
      for (const day of days) collector.day(day, `line ${line}`);
      continue;
    }
    if (!days) throw new IngestFormatError(`${at()}: a row before its block's Currency header`);
    const code = CODES[fields[0]!];
    if (code === undefined || !Object.hasOwn(CODES, fields[0]!)) throw new IngestFormatError(`${at()}: unknown currency ${showValue(fields[0]!)}`);
    if (fields.length !== days.length + 1) throw new IngestFormatError(`${at()}: currency=${code} has ${fields.length - 1} values for ${days.length} days`);
    days.forEach((date, i) => {
      const value = fields[i + 1]!;
      if (value !== 'NA') collector.add(date, code, withoutThousands(value), '1');
    });
  }
  return collector.result();
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function isoFromImf(text: string, at: () => string): string {
  const match = DAY.exec(text);
  const month = match ? MONTHS.indexOf(match[1]!) + 1 : 0;
  const iso = match && month > 0 ? `${match[3]}-${String(month).padStart(2, '0')}-${match[2]}` : '';
  if (!isValidIsoDate(iso)) throw new IngestFormatError(`${at()} has an invalid date ${showValue(text)} (expected "March 02, 2026")`);
  return iso;
}

/** "1,435.4" as 1435.4: the Fund groups thousands with commas; a comma anywhere else is refused later. */
function withoutThousands(value: string): string {
  return /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(value) ? value.replaceAll(',', '') : value;
}
