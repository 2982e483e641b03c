/**
 * An independent exact oracle for the service's arithmetic (DECISIONS §3), written for the HTTP
 * tests: plain BigInt rationals, no big.js and nothing from src/. A value is num/den with den > 0.
 */
export interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const SHOWN = 6;
const SCALE = 10n ** BigInt(SHOWN);

/** Parses `12`, `-2`, `+3`, `.5`, `0012.50`, `1.1684` exactly into digits / 10^scale. */
export function parseDecimal(text: string): Rational {
  const match = DECIMAL.exec(text);
  const [, sign = '', whole = '', fraction = ''] = match ?? [];
  if (!match || whole + fraction === '') throw new Error(`oracle: not a decimal: ${JSON.stringify(text)}`);
  const magnitude = BigInt(whole + fraction || '0');
  return { num: sign === '-' ? -magnitude : magnitude, den: 10n ** BigInt(fraction.length) };
}

export function multiply(a: Rational, b: Rational): Rational {
  return { num: a.num * b.num, den: a.den * b.den };
}

export function subtract(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

export function divide(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new Error('oracle: division by zero');
  const sign = b.num < 0n ? -1n : 1n;
  return { num: a.num * b.den * sign, den: a.den * b.num * sign };
}

/** Rounds to 6 fractional digits, half away from zero (big.js's "half-up"), and prints them all. */
export function formatHalfUp6(value: Rational): string {
  const negative = value.num < 0n;
  const magnitude = negative ? -value.num : value.num;
  // floor(|x| × 10^6 + 1/2) = floor((2·|num|·10^6 + den) / (2·den))
  const units = (2n * magnitude * SCALE + value.den) / (2n * value.den);
  const whole = units / SCALE;
  const fraction = (units % SCALE).toString().padStart(SHOWN, '0');
  return `${negative && units !== 0n ? '-' : ''}${whole}.${fraction}`;
}

/** Rates per 1 EUR as the ECB quotes them; EUR itself is 1 and need not be listed. */
export type EcbDay = Readonly<Record<string, string>>;

/** The quote of `code` per 1 EUR that day, exact. */
export function perEuro(day: EcbDay, code: string): Rational {
  if (code === 'EUR') return { num: 1n, den: 1n };
  const quoted = day[code];
  if (quoted === undefined) throw new Error(`oracle: no rate for ${code}`);
  return parseDecimal(quoted);
}

/** rate(to)/rate(from), rounded once. */
export function crossRate(day: EcbDay, from: string, to: string): string {
  return formatHalfUp6(divide(perEuro(day, to), perEuro(day, from)));
}

/** amount × rate(to)/rate(from), exact until the single final rounding. */
export function convertExact(day: EcbDay, from: string, to: string, amount: string): string {
  return formatHalfUp6(divide(multiply(parseDecimal(amount), perEuro(day, to)), perEuro(day, from)));
}

/** The rounding the service must NOT do: amount × the 6-digit rate shown. */
export function convertViaRoundedRate(day: EcbDay, from: string, to: string, amount: string): string {
  return formatHalfUp6(multiply(parseDecimal(amount), parseDecimal(crossRate(day, from, to))));
}

/**
 * Rounds to `places` fractional digits (0 to 12), half away from zero, and prints them all; 0
 * places prints a plain integer. Never "-0…": a value rounding to zero has no sign.
 */
export function formatHalfUp(value: Rational, places: number): string {
  const negative = value.num < 0n;
  const magnitude = negative ? -value.num : value.num;
  const scale = 10n ** BigInt(places);
  const units = (2n * magnitude * scale + value.den) / (2n * value.den);
  const whole = (units / scale).toString();
  const text = places === 0 ? whole : `${whole}.${(units % scale).toString().padStart(places, '0')}`;
  return `${negative && units !== 0n ? '-' : ''}${text}`;
}
