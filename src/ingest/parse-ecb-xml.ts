import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { IngestFormatError, type ParsedDay } from './parsed-day.js';
import { canonicalRate, isCurrencyCode, isValidIsoDate, showValue } from './rate-value.js';

type XmlNode = Record<string, unknown>;

const ATTR = '@_';

// Cube is always an array, so a file with one day (or one currency) has the same shape as the
// 90-day file. Attribute values stay strings (no number parsing: rates must keep every digit)
// and are not trimmed, so ' 1.1 ' is rejected like any other malformed rate.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && name === 'Cube',
});

/**
 * Parses an ECB gesmes XML file (daily, 90-day or full history). Days come back in file order.
 * Throws IngestFormatError naming `source` and the element at fault.
 */
export function parseEcbXml(text: string, source: string): ParsedDay[] {
  refuseDoctype(text, source);
  const { body, skippedLines } = stripLeading(text);
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw syntaxError(valid.err, body, skippedLines, source);

  let doc: unknown;
  try {
    doc = parser.parse(body);
  } catch (err) {
    throw new IngestFormatError(`${source}: unreadable XML: ${err instanceof Error ? err.message : String(err)}`);
  }

  const envelope = isNode(doc) ? doc['Envelope'] : undefined;
  if (!isNode(envelope)) throw new IngestFormatError(`${source}: root element is not gesmes:Envelope`);
  const outer = envelope['Cube'];
  if (!Array.isArray(outer) || outer.length === 0) {
    throw new IngestFormatError(`${source}: gesmes:Envelope has no Cube element`);
  }
  if (outer.length > 1) throw new IngestFormatError(`${source}: gesmes:Envelope has ${outer.length} Cube elements, expected 1`);

  const dayCubes = childCubes(outer[0]);
  if (dayCubes.length === 0) throw new IngestFormatError(`${source}: the file holds no days (no Cube with a time)`);

  const days: ParsedDay[] = [];
  const seen = new Set<string>();
  dayCubes.forEach((cube, i) => {
    const day = readDay(cube, `${source}: day Cube #${i + 1}`, source);
    if (seen.has(day.date)) throw new IngestFormatError(`${source}: Cube time=${day.date} appears twice`);
    seen.add(day.date);
    days.push(day);
  });
  return days;
}

function readDay(cube: unknown, position: string, source: string): ParsedDay {
  const time = attr(cube, 'time');
  if (time === undefined) throw new IngestFormatError(`${position} has no time attribute`);
  if (!isValidIsoDate(time)) throw new IngestFormatError(`${position} has an invalid time ${showValue(time)}`);

  const where = `${source}: Cube time=${time}`;
  const rateCubes = childCubes(cube);
  if (rateCubes.length === 0) throw new IngestFormatError(`${where} has no rates`);

  const rates = new Map<string, string>();
  rateCubes.forEach((rateCube, i) => {
    const currency = attr(rateCube, 'currency');
    if (currency === undefined) throw new IngestFormatError(`${where}: rate Cube #${i + 1} has no currency attribute`);
    if (!isCurrencyCode(currency)) {
      throw new IngestFormatError(`${where}: invalid currency ${showValue(currency)} (expected 3 upper-case letters)`);
    }
    const at = (): string => `${where} currency=${currency}`;
    const rate = attr(rateCube, 'rate');
    if (rate === undefined) throw new IngestFormatError(`${at()} has no rate attribute`);
    if (rates.has(currency)) throw new IngestFormatError(`${at()} appears twice`);
    rates.set(currency, canonicalRate(rate, at));
  });
  return { date: time, rates };
}

/**
 * The ECB's files have no DOCTYPE, and a DOCTYPE is how XML attacks come: entities that expand to
 * gigabytes, external entities that read files. Refused wherever it stands (even in a comment),
 * in any letter case, before the validator or the parser sees the text.
 */
function refuseDoctype(text: string, source: string): void {
  const at = text.search(/<!doctype/i);
  if (at < 0) return;
  const line = countLines(text.slice(0, at));
  throw new IngestFormatError(`${source}: line ${line} holds a DOCTYPE declaration; ECB files have none, refusing the file`);
}

/** The Cube children of a node; an empty `<Cube/>` parses to '' and has none. */
function childCubes(node: unknown): unknown[] {
  if (!isNode(node)) return [];
  const cubes = node['Cube'];
  return Array.isArray(cubes) ? cubes : [];
}

function attr(node: unknown, name: string): string | undefined {
  if (!isNode(node)) return undefined;
  const value = node[ATTR + name];
  return typeof value === 'string' ? value : undefined;
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An XML declaration must open the document, so leading whitespace (and a BOM) is cut before
 * validating; the cut lines are counted to keep reported line numbers true to the original.
 */
function stripLeading(text: string): { body: string; skippedLines: number } {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let skippedLines = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) skippedLines++;
    else if (c !== 32 && c !== 9 && c !== 13) break;
  }
  return { body: text.slice(i), skippedLines };
}

interface ValidatorError { code: string; msg: string; line: number; col?: number }

function syntaxError(err: ValidatorError, body: string, skippedLines: number, source: string): IngestFormatError {
  // The validator quotes offending names in full; garbage input can make that a whole file.
  const flat = err.msg.replace(/\s+/g, ' ');
  const msg = flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
  // For elements still open at the end of input the validator reports line 1, which is useless for
  // a truncated download; the last line is where the document actually stops.
  if (err.code === 'InvalidXml' && msg.startsWith("Invalid '[")) {
    const lastLine = countLines(body.trimEnd()) + skippedLines;
    return new IngestFormatError(`${source}: XML ends at line ${lastLine} with ${openElements(err.msg)} still open (truncated?)`);
  }
  const col = err.col === undefined ? '' : `, column ${err.col}`;
  return new IngestFormatError(`${source}: malformed XML at line ${err.line + skippedLines}${col}: ${msg}`);
}

/** The validator lists unclosed elements as a JSON array inside its message. */
function openElements(msg: string): string {
  const list = /^Invalid '(\[[^']*\])' found\.$/.exec(msg.trim())?.[1];
  try {
    const names: unknown = JSON.parse(list ?? '');
    if (Array.isArray(names) && names.length > 0) return `<${names.join('>, <')}>`;
  } catch {
    // fall through to the generic wording
  }
  return 'elements';
}

function countLines(s: string): number {
  let lines = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
  return lines;
}
