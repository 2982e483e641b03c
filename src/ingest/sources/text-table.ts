import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';

/** Strict UTF-8 (a BOM is dropped): a mis-encoded download fails loudly, not as U+FFFD. */
export function readUtf8(bytes: Buffer, origin: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IngestFormatError(`${origin}: not valid UTF-8`);
  }
}

/** The document's lines, CRLF or LF, each with its 1-based line number. */
export function numberedLines(text: string): { line: number; text: string }[] {
  return text.split(/\r?\n/).map((line, i) => ({ line: i + 1, text: line }));
}

/**
 * One line of a delimited text (CSV with `,`, the Danish statbank's `;`, the IMF's tab) as its
 * fields. A field may be double-quoted ("a, b" and "" inside); a quote anywhere else, or an
 * unclosed one, is refused: the banks' files never hold one.
 */
export function splitFields(line: string, separator: string, where: () => string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close < 0) throw new IngestFormatError(`${where()}: unclosed quote`);
        field += line.slice(i, close);
        if (line[close + 1] === '"') {
          field += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      fields.push(field);
      if (i === line.length) return fields;
      if (line[i] !== separator) throw new IngestFormatError(`${where()}: text after a quoted field ${showValue(field)}`);
      i++;
      continue;
    }
    const end = line.indexOf(separator, i);
    const field = end < 0 ? line.slice(i) : line.slice(i, end);
    if (field.includes('"')) throw new IngestFormatError(`${where()}: stray quote in ${showValue(field)}`);
    fields.push(field);
    if (end < 0) return fields;
    i = end + 1;
  }
}

/** The index of each of `names` in a header row, refusing a header that lacks one. */
export function columnsOf<const T extends string>(header: readonly string[], names: readonly T[], where: () => string): Record<T, number> {
  const columns = {} as Record<T, number>;
  for (const name of names) {
    const at = header.indexOf(name);
    if (at < 0) throw new IngestFormatError(`${where()}: no column ${showValue(name)} in the header`);
    if (header.indexOf(name, at + 1) >= 0) throw new IngestFormatError(`${where()}: column ${showValue(name)} appears twice in the header`);
    columns[name] = at;
  }
  return columns;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The two-digit month of an English abbreviation ("Mar" → "03"), else undefined. */
export function monthNumber(abbreviation: string): string | undefined {
  const at = MONTHS.indexOf(abbreviation);
  return at < 0 ? undefined : String(at + 1).padStart(2, '0');
}

/** The English abbreviation of a two-digit month ("03" → "Mar"). */
export function monthAbbreviation(month: string): string {
  return MONTHS[Number(month) - 1] ?? month;
}
