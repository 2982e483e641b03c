import { IngestFormatError } from './parsed-day.js';

export { isValidIsoDate } from '../domain/calendar-date.js';

/** Integer plus fraction digits a rate may have, as written. */
export const MAX_RATE_DIGITS = 24;

/**
 * Checks an ECB rate and returns it in canonical form, so that the XML's `1.1900` and the history
 * CSV's `1.19` compare equal as strings. Only plain positive decimals of at most MAX_RATE_DIGITS
 * digits are accepted: the ECB never writes signs, exponents or `.5`, so anything else means the
 * file is not what we think it is. A hand-written scan instead of regexes keeps this linear on
 * hostile input (it runs for every value of the full history). `where` may be a function so
 * callers need not build a message string for every one of those values, only for the bad one.
 */
export function canonicalRate(text: string, where: string | (() => string)): string {
  const n = text.length;
  let dot = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === 46 && dot < 0 && i > 0 && i < n - 1) {
      dot = i;
      continue;
    }
    return invalid(text, where);
  }
  if (n === 0) return invalid(text, where);
  // Digits as written, leading and trailing zeros included: the ECB writes at most a dozen, and a
  // crafted value of thousands would be stored and make every conversion on it costly.
  const digits = dot < 0 ? n : n - 1;
  if (digits > MAX_RATE_DIGITS) {
    throw new IngestFormatError(
      `${describe(where)}: rate ${showValue(text)} has ${digits} digits, more than the ${MAX_RATE_DIGITS} a rate may have`,
    );
  }

  const intEnd = dot < 0 ? n : dot;
  let intStart = 0;
  while (intStart < intEnd - 1 && text.charCodeAt(intStart) === 48) intStart++;
  let fracEnd = n;
  if (dot >= 0) {
    while (fracEnd > dot + 1 && text.charCodeAt(fracEnd - 1) === 48) fracEnd--;
  }
  const intPart = text.slice(intStart, intEnd);
  const fracPart = dot < 0 ? '' : text.slice(dot + 1, fracEnd);
  if (intPart === '0' && fracPart === '') {
    throw new IngestFormatError(`${describe(where)}: rate must be greater than zero, got ${showValue(text)}`);
  }
  // Already canonical (the history CSV's usual case): hand back the input, building no new string.
  if (intStart === 0 && fracEnd === n) return text;
  return fracPart === '' ? intPart : `${intPart}.${fracPart}`;
}

/**
 * A rate its bank writes with a decimal comma ("88,2826"), with a point instead, for canonicalRate
 * to check. A point is refused: it would be a format `bank` ("the CBR") does not use.
 */
export function fromDecimalComma(text: string, where: string, bank: string): string {
  if (text.includes('.')) throw new IngestFormatError(`${where}: invalid rate ${showValue(text)} (${bank} writes a decimal comma)`);
  return text.replace(',', '.');
}

/** True for a code the ECB could publish: exactly three upper-case ASCII letters. */
export function isCurrencyCode(s: string): boolean {
  return s.length === 3 && isUpper(s.charCodeAt(0)) && isUpper(s.charCodeAt(1)) && isUpper(s.charCodeAt(2));
}

/** Quotes a value for an error message, cut short so a huge bad field cannot flood the log. */
export function showValue(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function invalid(text: string, where: string | (() => string)): never {
  throw new IngestFormatError(`${describe(where)}: invalid rate ${showValue(text)} (expected a positive decimal such as 1.0873)`);
}

function describe(where: string | (() => string)): string {
  return typeof where === 'string' ? where : where();
}
