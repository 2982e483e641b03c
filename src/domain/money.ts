import { AmountNotPositiveError } from './errors.js';

/**
 * Exact decimal arithmetic for every money path, on scaled integers: a value is `units / 10^scale`
 * with `units` a BigInt, so nothing is ever a binary float. Conversions multiply and divide
 * exactly and round once, half-up (ties away from zero), to the 6 places shown.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export const SHOWN_DECIMALS = 6;

/** DECISIONS §15: the fractional digits a client may ask for (`precision`), 6 by default. */
export const MAX_SHOWN_DECIMALS = 12;

/**
 * An exact rational, num / den with den > 0: a rate per 1 EUR as a source gives it (P(EUR) / P(c),
 * DECISIONS §9), or a cross rate before its rounding.
 */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

/** Numeric string per DECISIONS §2: optional sign, digits with optional fraction, or `.5`. */
export const NUMERIC_STRING = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

/**
 * 10^0 … 10^64, made once: rates have at most 24 digits, amounts at most 12 places, plus the 6
 * shown. A larger exponent is computed each time and not kept, so no input can grow a table.
 */
const CACHED_POWERS = 64;
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: CACHED_POWERS + 1 }, (_, i) => 10n ** BigInt(i));
function pow10(n: number): bigint {
  return POWERS_OF_TEN[n] ?? 10n ** BigInt(n);
}

/** Parses a string already known to match NUMERIC_STRING. */
export function decimal(text: string): Decimal {
  const negative = text.startsWith('-');
  const unsigned = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  const point = unsigned.indexOf('.');
  const digits = point === -1 ? unsigned : unsigned.slice(0, point) + unsigned.slice(point + 1);
  const units = BigInt(digits === '' ? '0' : digits);
  return { units: negative ? -units : units, scale: point === -1 ? 0 : unsigned.length - point - 1 };
}

export function isPositive(value: Decimal): boolean {
  return value.units > 0n;
}

/** A conversion's amount (already a numeric string), parsed; zero or negative is refused. */
export function positiveAmount(text: string): Decimal {
  const value = decimal(text);
  if (!isPositive(value)) throw new AmountNotPositiveError();
  return value;
}

/** n / d (d > 0) rounded half-up (ties away from zero) to an integer: floor((2|n| + d) / 2d), signed. */
function roundedQuotient(n: bigint, d: bigint): bigint {
  return n < 0n ? -((-2n * n + d) / (2n * d)) : (2n * n + d) / (2n * d);
}

/**
 * An integer count of 10^-places as a fixed `places`-place string, never in exponent notation;
 * with 0 places, a plain integer without a point ("1", not "1.").
 */
function formatScaled(scaled: bigint, places: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString();
  const cut = digits.length - places;
  let text: string;
  if (places === 0) text = digits;
  else text = cut > 0 ? digits.slice(0, cut) + '.' + digits.slice(cut) : `0.${digits.padStart(places, '0')}`;
  return negative ? `-${text}` : text;
}

/** An integer count of millionths as a fixed 6-place string, never in exponent notation. */
function formatMillionths(millionths: bigint): string {
  return formatScaled(millionths, SHOWN_DECIMALS);
}

/**
 * An exact factor (a rate pair: rate(to) / rate(from)) prepared for repeated scaling: a day's rate
 * pair serves every conversion of that pair, so what does not depend on the value is taken once.
 */
export class ScaleFactor {
  /** factor.num · 10^6 */
  private readonly times: bigint;
  /** factor.den */
  private readonly over: bigint;
  /** By the value's scale: the division's terms, reduced by their common divisor. */
  private readonly terms: { times: bigint; divisor: bigint }[] = [];

  constructor(factor: Ratio) {
    if (factor.den <= 0n) throw new RangeError('a scale factor needs a positive denominator');
    this.times = factor.num * pow10(SHOWN_DECIMALS);
    this.over = factor.den;
  }

  /** value × factor in millionths, rounded half-up once. */
  millionthsOf(value: Decimal): bigint {
    const { times, divisor } = this.termsFor(value.scale);
    return roundedQuotient(value.units * times, divisor);
  }

  /**
   * The terms for a value at `scale`, divided by their greatest common divisor (powers of ten
   * mostly cancel), which keeps the products small; amounts come in few scales, so they are kept.
   */
  private termsFor(scale: number): { times: bigint; divisor: bigint } {
    const known = this.terms[scale];
    if (known) return known;
    const divisor = this.over * pow10(scale);
    const common = gcd(this.times < 0n ? -this.times : this.times, divisor);
    const terms = { times: this.times / common, divisor: divisor / common };
    // A scale past any amount's limit (12 places) is computed but not kept.
    if (scale <= 12) this.terms[scale] = terms;
    return terms;
  }
}

/** Greatest common divisor of two integers, b positive. */
function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** value × factor, exact until the single final rounding to 6 places half-up. */
export function scaledBy(value: Decimal, factor: ScaleFactor): string {
  return formatMillionths(factor.millionthsOf(value));
}

/** value × numerator / denominator, exact until the single final rounding to 6 places half-up. */
export function scaleRounded(value: Decimal, numerator: Decimal, denominator: Decimal): string {
  return scaledBy(value, new ScaleFactor(ratio(numerator, denominator)));
}

export const ONE: Decimal = { units: 1n, scale: 0 };

/** numerator / denominator (denominator positive), exact. */
export function ratio(numerator: Decimal, denominator: Decimal): Ratio {
  if (denominator.units <= 0n) throw new RangeError('a ratio needs a positive denominator');
  return { num: numerator.units * pow10(denominator.scale), den: denominator.units * pow10(numerator.scale) };
}

/** a / b (b positive), exact: the rate of one currency in another, both given per 1 EUR. */
export function quotient(a: Ratio, b: Ratio): Ratio {
  if (b.num <= 0n) throw new RangeError('a quotient needs a positive divisor');
  return { num: a.num * b.den, den: a.den * b.num };
}

/**
 * A ratio rounded once to `places` (default 6) half-up (ties away from zero); never "-0.000000"
 * (a BigInt zero has no sign).
 */
export function roundedRatio(value: Ratio, places: number = SHOWN_DECIMALS): string {
  return formatScaled(roundedQuotient(value.num * pow10(places), value.den), places);
}

/**
 * value × factor rounded once to `places` half-up, from the exact factor: the path of a
 * `precision` other than 6, which ScaleFactor's prepared 6-place terms do not serve.
 */
export function scaledRounded(value: Decimal, factor: Ratio, places: number): string {
  return roundedRatio({ num: value.units * factor.num, den: factor.den * pow10(value.scale) }, places);
}

/** numerator / denominator rounded once to 6 places half-up. */
export function ratioRounded(numerator: Decimal, denominator: Decimal): string {
  return roundedRatio(ratio(numerator, denominator));
}

/**
 * How a positive rate moved from `start` to `end`: end − start, and (end − start) / start × 100,
 * each from the exact ratios and rounded once to `places` (DECISIONS §8, §15).
 */
export function rateChange(start: Ratio, end: Ratio, places: number = SHOWN_DECIMALS): { change: string; changePct: string } {
  const difference = end.num * start.den - start.num * end.den;
  if (start.num <= 0n) throw new RangeError('a change needs a positive start');
  return {
    change: roundedRatio({ num: difference, den: end.den * start.den }, places),
    changePct: roundedRatio({ num: difference * 100n, den: end.den * start.num }, places),
  };
}

/**
 * How far `b` lies from `a`, in percent of `a`: (b − a) / a × 100, from the exact ratios, rounded
 * once to 6 places half-up (ties away from zero); never "-0.000000". `a` must be positive.
 */
export function relativeDifferencePct(a: Ratio, b: Ratio): string {
  if (a.num <= 0n) throw new RangeError('a relative difference needs a positive reference');
  return roundedRatio({ num: (b.num * a.den - a.num * b.den) * 100n, den: b.den * a.num });
}

/**
 * Whether `b` lies more than `thresholdPct` percent of `a` away from `a`, either way:
 * |b − a| / a × 100 > threshold, decided on the exact ratios (a difference rounding to the
 * threshold still counts by its true size). `a` must be positive, the threshold not negative.
 */
export function differsByMorePct(a: Ratio, b: Ratio, thresholdPct: Decimal): boolean {
  if (a.num <= 0n) throw new RangeError('a relative difference needs a positive reference');
  const difference = b.num * a.den - a.num * b.den;
  // |difference| / (b.den × a.num) × 100 > units / 10^scale, every denominator positive.
  return (difference < 0n ? -difference : difference) * 100n * pow10(thresholdPct.scale) > thresholdPct.units * b.den * a.num;
}

/**
 * The exponent k when `text` is 10^k written as a plain integer ("1", "10", "1000"), else
 * undefined. Banks quote some currencies per 10, 100 … units; every such nominal is a power of
 * ten, which keeps the per-unit value a finite decimal.
 */
export function powerOfTenExponent(text: string): number | undefined {
  if (text.charCodeAt(0) !== 49 /* 1 */) return undefined;
  for (let i = 1; i < text.length; i++) if (text.charCodeAt(i) !== 48 /* 0 */) return undefined;
  return text.length - 1;
}

/** value / 10^places, exact: only the scale moves. */
export function dividedByPowerOfTen(value: Decimal, places: number): Decimal {
  return { units: value.units, scale: value.scale + places };
}

/** a × b, exact: the units multiply and the scales add (a price per gram times grams per ounce). */
export function multiplied(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** value rounded to `places` decimals, half up (ties away from zero); one with fewer is as it is. */
export function roundedToPlaces(value: Decimal, places: number): Decimal {
  if (value.scale <= places) return value;
  return { units: roundedQuotient(value.units, pow10(value.scale - places)), scale: places };
}

/**
 * True when b lies within |a| / 10^digits of a, exactly: b agrees with a to about `digits`
 * significant digits, whatever their size.
 */
export function agreesWithin(a: Decimal, b: Decimal, digits: number): boolean {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * pow10(scale - a.scale);
  const y = b.units * pow10(scale - b.scale);
  const gap = x > y ? x - y : y - x;
  return gap * pow10(digits) <= (x < 0n ? -x : x);
}

/**
 * The shortest plain decimal text of a value: no exponent, no trailing fractional zeros, one
 * leading zero before a point ("0.570006", "88.2826", "1"). Equal values give equal texts, so
 * stored values compare as strings.
 */
export function decimalText(value: Decimal): string {
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  } else if (scale < 0) {
    digits = units === 0n ? '0' : digits + '0'.repeat(-scale);
  }
  return negative ? `-${digits}` : digits;
}
