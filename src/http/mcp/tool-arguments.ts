import { decimal, decimalText, dividedByPowerOfTen } from '../../domain/money.js';
import { z } from 'zod';

/**
 * A tool's input schema as the SDK takes it: the JSON Schema the client is shown is the one of
 * `documented` (types, required arguments, descriptions), but parsing lets every value through, so
 * that the tool itself checks the arguments with the API's own rules and messages, after the call
 * is counted (DECISIONS §17: a bad argument is a counted call answered with the API's message).
 * The HTTP routes do the same: their schemas document, the handlers validate (endpoints/endpoint.ts).
 */
export function leniently(documented: z.ZodObject): z.ZodObject {
  const json = z.toJSONSchema(documented, { io: 'input', target: 'draft-7' });
  const properties = json.properties ?? {};
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    shape[name] = z.unknown().optional().meta(typeof property === 'object' ? property : {});
  }
  return z.object(shape).meta({ required: json.required ?? [] });
}

/** Arguments as the client sent them: any JSON values, checked by the tool. */
export type ToolArguments = Record<string, unknown>;

/** An optional argument sent as null is read as absent, as an HTTP parameter left out. */
export const given = (value: unknown): unknown => (value === null ? undefined : value);

/**
 * DECISIONS §17: a list of codes is a JSON array of strings, sent to the API's rule as the HTTP
 * parameter's comma-separated text (so `[]` fails as `symbols=` does). The HTTP text itself is read
 * too. Anything else (an item that is no string, or holds a comma) is passed on as it is, and
 * fails the rule with its message.
 */
export function codeList(value: unknown): unknown {
  const list = given(value);
  if (!Array.isArray(list)) return list;
  const items: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string' || item.includes(',')) return list;
    items.push(item);
  }
  return items.join(',');
}

/**
 * DECISIONS §15: `precision` is a JSON integer, sent to the API's rule as the HTTP parameter's
 * text (`8` → "8"); that text itself is read too. Anything else (a fraction, a boolean, `1e21`,
 * which reads "1e+21") is passed on as it is and fails the rule with its message.
 */
export function precisionText(value: unknown): unknown {
  const places = given(value);
  return typeof places === 'number' && Number.isInteger(places) ? String(places) : places;
}

/** The significant digits a double keeps for any decimal written with at most this many. */
const EXACT_DIGITS = 15;

/**
 * DECISIONS §17: `amount` is a decimal string, or a JSON number. A number arrives parsed into a
 * double; its shortest decimal form is exactly what the client wrote (or the same value, `1e3`
 * for `1000`) when that form has at most 15 significant digits. A number past that may not be what
 * was sent, so it is passed on as a number and fails the numeric-string rule, as do NaN-free
 * non-numbers; the client sends such an amount as a string.
 */
export function amountText(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const significant = mantissa.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  if (significant.length > EXACT_DIGITS) return value;
  // `1.5e+21` is 15 / 10^(1 − 21): money.ts writes it plainly, as any decimal it holds.
  return decimalText(dividedByPowerOfTen(decimal(mantissa), -Number(exponent)));
}
