import type * as FastXmlParser from 'fast-xml-parser';
import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { onFirstUse } from './on-first-use.js';

export type XmlNode = Record<string, unknown>;

/** fast-xml-parser, loaded by the first document parsed: every XML adapter imports this module. */
const xmlParser = onFirstUse<typeof FastXmlParser>('fast-xml-parser');

/**
 * A bank's XML document as plain objects (see parseBankXml), its bytes decoded strictly in the
 * encoding it declares, which must be one of `encodings` (UTF-8 when none is declared): a file in
 * an encoding the bank does not use is refused rather than guessed.
 */
export function readBankXml(bytes: Buffer, origin: string, repeated: readonly string[], encodings: readonly string[] = ['utf-8']): XmlNode {
  return parseBankXml(decode(bytes, origin, encodings), origin, repeated);
}

/**
 * XML text as plain objects, every value the text written (no number parsing, no trimming: a
 * decimal comma or a trailing zero stays as the bank wrote it), attributes as `@_name`, namespace
 * prefixes dropped. Elements named in `repeated` are always arrays, so a day with one rate reads
 * like a day with many. A DOCTYPE is refused: no bank's feed has one, and entities are a way to
 * blow a document up.
 */
export function parseBankXml(text: string, origin: string, repeated: readonly string[]): XmlNode {
  if (/<!doctype/i.test(text)) throw new IngestFormatError(`${origin}: holds a DOCTYPE declaration; the bank's files have none, refusing the file`);
  const body = text.trimStart();
  const { XMLParser, XMLValidator } = xmlParser();
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new IngestFormatError(`${origin}: malformed XML at line ${valid.err.line}: ${valid.err.msg.slice(0, 200)}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    ignoreDeclaration: true,
    ignorePiTags: true,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    removeNSPrefix: true,
    isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && repeated.includes(name),
  });
  return xmlNode(parser.parse(body)) ?? {};
}

export function xmlNode(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

/** The elements named `name` under `parent` (declared repeated), as parsed; none when absent. */
export function xmlChildren(parent: XmlNode | undefined, name: string): unknown[] {
  const value = parent?.[name];
  return Array.isArray(value) ? value : [];
}

/** The elements named `name` under `parent` (declared repeated) that hold elements; none when absent. */
export function xmlNodes(parent: XmlNode | undefined, name: string): (XmlNode | undefined)[] {
  return xmlChildren(parent, name).map(xmlNode);
}

/**
 * The text of an element: a leaf is its string; an element with attributes keeps its text in
 * `#text` (an empty element with attributes has none: ""). Undefined when absent or not text.
 */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const node = xmlNode(value);
  if (!node) return undefined;
  const text = node['#text'];
  if (text === undefined) return Object.keys(node).every((key) => key.startsWith('@_')) ? '' : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** The text of a child element that occurs once ("" for an empty one), else undefined. */
export function childText(parent: XmlNode | undefined, name: string): string | undefined {
  return xmlText(parent?.[name]);
}

function decode(bytes: Buffer, origin: string, encodings: readonly string[]): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  if (!encodings.includes(declared)) {
    throw new IngestFormatError(`${origin}: declares encoding ${showValue(declared)}; expected ${encodings.join(' or ')}`);
  }
  try {
    return new TextDecoder(declared, { fatal: true }).decode(bytes);
  } catch {
    throw new IngestFormatError(`${origin}: not valid ${declared}`);
  }
}
