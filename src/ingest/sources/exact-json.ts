import type * as LosslessJson from 'lossless-json';
import { IngestFormatError } from '../parsed-day.js';
import { showValue } from '../rate-value.js';
import { onFirstUse } from './on-first-use.js';

/** lossless-json, loaded by the first document parsed: every JSON adapter imports this module. */
const jsonParser = onFirstUse<typeof LosslessJson>('lossless-json');

/**
 * JSON as the banks send it, every number kept as the text written (DECISIONS §9: never through a
 * binary float). JSON.parse cannot do this on Node 20 (a reviver's `context.source` arrived with
 * V8 11.4, Node 21), and a hand-made tokenizer would have to get strings, escapes and nesting
 * right; lossless-json is a small, dependency-free parser made for exactly this, and it also
 * refuses duplicate keys.
 */
export function readExactJson(bytes: Buffer, origin: string): unknown {
  const text = decodeUtf8(bytes, origin);
  try {
    return jsonParser().parse(text, null, (written) => new JsonNumber(written));
  } catch (err) {
    // Deep nesting can overflow the stack (RangeError): as malformed as any other bad input.
    const reason = err instanceof Error ? err.message : String(err);
    throw new IngestFormatError(`${origin}: not valid JSON: ${reason.length > 200 ? `${reason.slice(0, 200)}…` : reason}`);
  }
}

/** A JSON number as written in the document. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/** The text of a JSON number as written ("3.6770"), refusing any other kind of value. */
export function numberText(value: unknown, what: () => string): string {
  if (value instanceof JsonNumber) return value.text;
  throw new IngestFormatError(`${what()}: expected a number, got ${describe(value)}`);
}

export function stringValue(value: unknown, what: () => string): string {
  if (typeof value === 'string') return value;
  throw new IngestFormatError(`${what()}: expected a string, got ${describe(value)}`);
}

export function arrayValue(value: unknown, what: () => string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new IngestFormatError(`${what()}: expected an array, got ${describe(value)}`);
}

export function objectValue(value: unknown, what: () => string): JsonObject {
  if (isObject(value)) return value;
  throw new IngestFormatError(`${what()}: expected an object, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value instanceof JsonNumber) return `the number ${showValue(value.text)}`;
  if (typeof value === 'string') return `the string ${showValue(value)}`;
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}

/** Strict UTF-8 (a BOM is dropped): a mis-encoded download fails loudly, not as U+FFFD. */
function decodeUtf8(bytes: Buffer, origin: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IngestFormatError(`${origin}: not valid UTF-8`);
  }
}
