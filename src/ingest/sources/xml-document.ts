import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { IngestFormatError } from '../parsed-day.js';

export type XmlNode = Record<string, unknown>;

/**
 * A bank's XML as plain objects, every value the text written (no number parsing, no trimming),
 * attributes as `@_name`. Elements named in `repeated` are always arrays, so a day with one rate
 * reads like a day with many. A DOCTYPE is refused: no bank's feed has one, and entities are a
 * way to blow a document up.
 */
export function readXml(text: string, origin: string, repeated: readonly string[]): XmlNode {
  if (/<!doctype/i.test(text)) throw new IngestFormatError(`${origin}: holds a DOCTYPE declaration; the bank's files have none, refusing the file`);
  const body = text.trimStart();
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
  return (xmlNode(parser.parse(body)) ?? {}) as XmlNode;
}

export function xmlNode(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

/** The elements named `name` under `parent` (declared repeated), else none. */
export function xmlChildren(parent: XmlNode | undefined, name: string): unknown[] {
  const value = parent?.[name];
  return Array.isArray(value) ? value : [];
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
