import { parseEcbCsv } from './parse-ecb-csv.js';
import { parseEcbXml } from './parse-ecb-xml.js';
import { IngestFormatError, type ParsedDay } from './parsed-day.js';
import { printableName, readZipMember } from './unzip-single.js';

const DEFAULT_MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

export interface ParseRatesFileOptions {
  /** Cap on the inflated size of a ZIP member (ZIP-bomb guard). Default 64 MiB. */
  maxUncompressedBytes?: number;
}

/**
 * Parses any ECB reference-rate file: gesmes XML, history or daily CSV, or the history ZIP.
 * The format is told by content, never by name, since a URL or file name can lie.
 * Days come back sorted by date, oldest first.
 */
export async function parseRatesFile(
  bytes: Buffer,
  source: string,
  opts: ParseRatesFileOptions = {},
): Promise<ParsedDay[]> {
  let days: ParsedDay[];
  if (isZip(bytes)) {
    const maxBytes = opts.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES;
    const member = await readZipMember(bytes, source, maxBytes);
    days = parseText(member.data, `${source}:${printableName(member.name)}`);
  } else {
    days = parseText(bytes, source);
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function isZip(bytes: Buffer): boolean {
  // Local file header signature "PK\x03\x04".
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function parseText(bytes: Buffer, source: string): ParsedDay[] {
  const text = decodeUtf8(bytes, source);
  const start = firstNonSpace(text);
  if (text.charCodeAt(start) === 0x3c /* < */) return parseEcbXml(text, source);
  if (text.startsWith('Date', start)) return parseEcbCsv(text, source);
  throw new IngestFormatError(`${source}: the content is not an ECB XML, CSV or ZIP file`);
}

function decodeUtf8(bytes: Buffer, source: string): string {
  try {
    // fatal: a mis-encoded download must fail loudly, not turn into U+FFFD; the BOM is dropped.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IngestFormatError(`${source}: not valid UTF-8`);
  }
}

/** Index of the first character that is not whitespace or a BOM (text.length if none). */
function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0xfeff && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}
