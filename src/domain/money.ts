/**
 * Exact decimal arithmetic for every money path, on scaled integers: a value is `units / 10^scale`
 * with `units` a BigInt, so nothing is ever a binary float. Conversions multiply and divide
 * exactly and round once, half-up, to the 6 places shown. (big.js did the same at 5–6 µs per
 * division; a 25-target bulk conversion needs 50 of them. BigInt does one in well under 1 µs.)
 * Conversion answers are mostly written by http/conversion-kernel.wat, which does the same
 * scaling from `splitTerms` in 64-bit integers, checked not to overflow, and leaves to this
 * module whatever would.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export const SHOWN_DECIMALS = 6;

/** Numeric string per DECISIONS §2: optional sign, digits with optional fraction, or `.5`. */
export const NUMERIC_STRING = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

const POWERS_OF_TEN: bigint[] = [1n];
function pow10(n: number): bigint {
  while (POWERS_OF_TEN.length <= n) POWERS_OF_TEN.push(POWERS_OF_TEN[POWERS_OF_TEN.length - 1]! * 10n);
  return POWERS_OF_TEN[n]!;
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

/** n / d (d > 0) rounded half-up (ties away from zero) to an integer. */
function roundedQuotient(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  const quotient = magnitude / d;
  const rounded = 2n * (magnitude - quotient * d) >= d ? quotient + 1n : quotient;
  return negative ? -rounded : rounded;
}

/** An integer count of millionths as a fixed 6-place string, never in exponent notation. */
function formatMillionths(millionths: bigint): string {
  return millionths < 0n ? `-${formatUnsigned(-millionths)}` : formatUnsigned(millionths);
}

/** formatMillionths of a count known not to be negative. */
function formatUnsigned(millionths: bigint): string {
  const digits = millionths.toString();
  const cut = digits.length - SHOWN_DECIMALS;
  return cut > 0 ? digits.slice(0, cut) + '.' + digits.slice(cut) : `0.${digits.padStart(SHOWN_DECIMALS, '0')}`;
}

/**
 * numerator / denominator prepared for repeated scaling: the parts of the computation that do not
 * depend on the value, taken once (a day's rate pair serves every conversion of that pair).
 */
export class ScaleFactor {
  /** 2 · numerator.units · 10^(denominator.scale + 6) */
  private readonly twiceTimes: bigint;
  /** denominator.units · 10^numerator.scale */
  private readonly over: bigint;
  /** By the value's scale, the terms of the positive case's division (see `millionthsOf`), for the scales amounts come in. */
  private readonly terms: Terms[] = [];
  /** The exact ratio, as text: two factors scale every value alike exactly when these are equal. */
  readonly exact: string;
  /** Whether the ratio is positive, as every ratio of two rates is. */
  private readonly positive: boolean;

  constructor(numerator: Decimal, denominator: Decimal) {
    this.twiceTimes = 2n * numerator.units * pow10(denominator.scale + SHOWN_DECIMALS);
    this.over = denominator.units * pow10(numerator.scale);
    this.exact = `${numerator.units}e-${numerator.scale}/${denominator.units}e-${denominator.scale}`;
    this.positive = numerator.units > 0n && denominator.units > 0n;
  }

  /**
   * scaledBy for a value the caller knows to be positive, as a conversion's amount is: the sign
   * tests of the general case are BigInt comparisons, each a call into V8's runtime, and a bulk
   * conversion made three of them for each of its 25 results.
   */
  ofPositive(value: Decimal): string {
    return this.positive ? formatUnsigned(this.positiveMillionthsOf(value)) : scaledBy(value, this);
  }

  /**
   * value × factor in millionths, rounded half-up: (v·n·10^sd) / (d·10^(sv+sn)), ×10^6. For a
   * positive quotient N/D, floor((2N + D) / 2D) is N/D rounded half-up in one division (a bulk
   * conversion does 25 of these per answer; three BigInt operations instead of seven).
   */
  millionthsOf(value: Decimal): bigint {
    if (value.units < 0n || this.twiceTimes < 0n) return roundedQuotient((value.units * this.twiceTimes) / 2n, this.over * pow10(value.scale));
    return this.positiveMillionthsOf(value);
  }

  /**
   * positiveMillionthsOf's terms for a value at `scale`, split for 64-bit integer arithmetic
   * (http/conversion-kernel.wat): with times = quotient·twiceDivisor + remainder, a value of `u`
   * units scales to u·quotient + floor((u·remainder + divisor) / twiceDivisor) millionths, whose
   * products are smaller than u·times. Undefined for a ratio that is not positive.
   */
  splitTerms(scale: number): SplitTerms | undefined {
    if (!this.positive) return undefined;
    const { times, divisor, twiceDivisor } = this.termsFor(scale);
    return { quotient: times / twiceDivisor, remainder: times % twiceDivisor, divisor, twiceDivisor };
  }

  /** millionthsOf for a value and ratio known not to be negative: floor((2N + D) / 2D) on the reduced terms. */
  private positiveMillionthsOf(value: Decimal): bigint {
    const { times, divisor, twiceDivisor } = this.termsFor(value.scale);
    return (value.units * times + divisor) / twiceDivisor;
  }

  /**
   * 2N = v·times and D = divisor, both divided by their greatest common divisor, which leaves
   * the quotient as it was. Unreduced, v·times of an amount with cents is ~10^23, a two-word
   * BigInt; reduced (powers of ten mostly cancel), it usually fits one 64-bit word, where V8's
   * BigInt operations are cheaper (the three of a scaling, alone: 48 → 11 ns; with ofPositive's
   * sign tests gone too, a bulk answer's 25 results and their formatting: 2.9 → 2.55 µs).
   */
  private termsFor(scale: number): Terms {
    const known = this.terms[scale];
    if (known) return known;
    const divisor = this.over * pow10(scale);
    // Reducing costs a Euclid's algorithm: worth it for the scales that are kept.
    const kept = scale <= 12;
    const common = kept ? gcd(this.twiceTimes, divisor) : 1n;
    const terms = { times: this.twiceTimes / common, divisor: divisor / common, twiceDivisor: (2n * divisor) / common };
    if (kept) this.terms[scale] = terms;
    return terms;
  }
}

export interface SplitTerms {
  quotient: bigint;
  remainder: bigint;
  divisor: bigint;
  twiceDivisor: bigint;
}

interface Terms {
  times: bigint;
  divisor: bigint;
  twiceDivisor: bigint;
}

/** Greatest common divisor of two positive integers. */
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
  return scaledBy(value, new ScaleFactor(numerator, denominator));
}

export const ONE: Decimal = { units: 1n, scale: 0 };

/** numerator / denominator rounded once to 6 places half-up. */
export function ratioRounded(numerator: Decimal, denominator: Decimal): string {
  return scaleRounded(ONE, numerator, denominator);
}
