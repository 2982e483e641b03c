import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';

export type XmlNode = Record<string, unknown>;

/**
 * Reads a bank's XML document as the CBR adapter does: every value the text written (no number
 * parsing, no trimming), the elements named in `repeated` always arrays so a one-row day reads
 * alike. The declared encoding must be one of `encodings` (UTF-8 when none is declared); a
 * DOCTYPE is refused (no bank here sends one, and entities are a way to blow a parser up).
 */
export function readBankXml(bytes: Buffer, origin: string, repeated: readonly string[], encodings: readonly string[] = ['utf-8']): XmlNode {
  const text = decode(bytes, origin, encodings);
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
  return xmlNode(parser.parse(body)) ?? {};
}

export function xmlNode(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

/** The nodes of a repeated element (declared in `repeated`), none when absent. */
export function xmlNodes(parent: XmlNode | undefined, name: string): (XmlNode | undefined)[] {
  const value = parent?.[name];
  return Array.isArray(value) ? value.map(xmlNode) : [];
}

/** The text of a child element that occurs once ("" for an empty one), else undefined. */
export function childText(parent: XmlNode | undefined, name: string): string | undefined {
  const value = parent?.[name];
  return typeof value === 'string' ? value : undefined;
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
