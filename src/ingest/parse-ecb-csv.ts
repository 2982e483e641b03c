import { IngestFormatError, type ParsedDay } from './parsed-day.js';
import { canonicalRate, isCurrencyCode, isValidIsoDate, showValue } from './rate-value.js';

/**
 * history: eurofxref-hist.csv — `Date,USD,...,` with ISO dates and N/A for missing values.
 * daily:   eurofxref.csv      — `Date, USD, ..., ` with dates like `13 April 2026`.
 */
type CsvStyle = 'history' | 'daily';

const MISSING = 'N/A';

const MONTHS = new Map([
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
].map((name, i) => [name, String(i + 1).padStart(2, '0')]));

/**
 * Parses either ECB CSV style, told apart by the header. Days come back in file order.
 * Throws IngestFormatError naming `source` and the 1-based line number.
 */
export function parseEcbCsv(text: string, source: string): ParsedDay[] {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  let first = 0;
  while (first < lines.length && isBlank(lines[first])) first++;
  let end = lines.length;
  while (end > first && isBlank(lines[end - 1])) end--;
  if (first === end) throw new IngestFormatError(`${source}: the CSV is empty`);

  const headerLine = stripCr(lines[first] ?? '').trimStart();
  const at = (i: number): string => `${source} line ${i + 1}`;
  const style = detectStyle(headerLine, at(first));
  const codes = readHeader(splitFields(headerLine, style), at(first));
  // The ECB ends the header and every row with a separator. A row that lacks it while the header
  // has it was cut short inside its last value (a truncated download), which would otherwise
  // pass as a complete row holding a wrong, shortened number.
  const trailingSeparator = endsWithSeparator(headerLine);
  if (first + 1 === end) throw new IngestFormatError(`${source}: the CSV has a header but no data rows`);

  const days: ParsedDay[] = [];
  const lineOfDate = new Map<string, number>();
  for (let i = first + 1; i < end; i++) {
    const where = at(i);
    const line = stripCr(lines[i] ?? '');
    if (isBlank(line)) throw new IngestFormatError(`${where}: empty line inside the data`);
    const day = readRow(splitFields(line, style), codes, style, where);
    if (trailingSeparator && !endsWithSeparator(line)) {
      throw new IngestFormatError(`${where}: the row does not end with "," as the header does (is the file cut short?)`);
    }
    const earlier = lineOfDate.get(day.date);
    if (earlier !== undefined) {
      throw new IngestFormatError(`${where}: date ${day.date} already appeared on line ${earlier + 1}`);
    }
    lineOfDate.set(day.date, i);
    days.push(day);
  }
  return days;
}

function detectStyle(header: string, where: string): CsvStyle {
  if (!header.startsWith('Date')) {
    throw new IngestFormatError(`${where}: the header must start with "Date", got ${showValue(header)}`);
  }
  return header.startsWith('Date, ') ? 'daily' : 'history';
}

function readHeader(fields: string[], where: string): string[] {
  if (fields[0] !== 'Date') throw new IngestFormatError(`${where}: the header must start with "Date,"`);
  const codes = fields.slice(1);
  if (codes.length === 0) throw new IngestFormatError(`${where}: the header lists no currencies`);
  const seen = new Set<string>();
  for (const code of codes) {
    if (!isCurrencyCode(code)) {
      throw new IngestFormatError(`${where}: header column ${showValue(code)} is not a currency code (3 upper-case letters)`);
    }
    if (seen.has(code)) throw new IngestFormatError(`${where}: currency ${code} appears twice in the header`);
    seen.add(code);
  }
  return codes;
}

function readRow(fields: string[], codes: string[], style: CsvStyle, where: string): ParsedDay {
  const expected = codes.length + 1;
  if (fields.length !== expected) {
    const which = fields.length < expected ? 'fewer' : 'more';
    throw new IngestFormatError(
      `${where}: the row has ${fields.length} fields, ${which} than the header's ${expected}`,
    );
  }
  const rawDate = fields[0] ?? '';
  const date = style === 'history' ? rawDate : longDateToIso(rawDate);
  if (date === undefined || !isValidIsoDate(date)) {
    throw new IngestFormatError(`${where}: invalid date ${showValue(rawDate)}`);
  }

  const rates = new Map<string, string>();
  for (let c = 0; c < codes.length; c++) {
    const value = fields[c + 1] ?? '';
    if (value === MISSING) continue;
    const code = codes[c] ?? '';
    rates.set(code, canonicalRate(value, () => `${where}, ${code} on ${date}`));
  }
  if (rates.size === 0) throw new IngestFormatError(`${where}: the row for ${date} has no rates (all ${MISSING})`);
  return { date, rates };
}

/**
 * Splits on commas and drops the empty field the ECB's trailing separator leaves, so it is never
 * taken for a currency. The daily style separates with ", ", hence the trim.
 */
function splitFields(line: string, style: CsvStyle): string[] {
  const fields = line.split(',');
  if (style === 'daily') {
    for (let i = 0; i < fields.length; i++) fields[i] = (fields[i] ?? '').trim();
  }
  if (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

/** `13 April 2026` → `2026-04-13` (unchecked: the caller validates the result). */
function longDateToIso(s: string): string | undefined {
  const parts = s.split(' ');
  if (parts.length !== 3) return undefined;
  const [day = '', monthName = '', year = ''] = parts;
  const month = MONTHS.get(monthName);
  if (month === undefined || year.length !== 4 || day.length < 1 || day.length > 2) return undefined;
  return `${year}-${month}-${day.padStart(2, '0')}`;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function endsWithSeparator(line: string): boolean {
  return line.trimEnd().endsWith(',');
}

function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}
