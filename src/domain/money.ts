/**
 * Exact decimal arithmetic for every money path, on scaled integers: a value is `units / 10^scale`
 * with `units` a BigInt, so nothing is ever a binary float. Conversions multiply and divide
 * exactly and round once, half-up, to the 6 places shown. (big.js did the same at 5–6 µs per
 * division; a 25-target bulk conversion needs 50 of them. BigInt does one in well under 1 µs.)
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
  const negative = millionths < 0n;
  const digits = (negative ? -millionths : millionths).toString().padStart(SHOWN_DECIMALS + 1, '0');
  const cut = digits.length - SHOWN_DECIMALS;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
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
  /** By the value's scale: [over · 10^scale, twice that], for the scales amounts come in. */
  private readonly divisors: [bigint, bigint][] = [];
  /** The exact ratio, as text: two factors scale every value alike exactly when these are equal. */
  readonly exact: string;

  constructor(numerator: Decimal, denominator: Decimal) {
    this.twiceTimes = 2n * numerator.units * pow10(denominator.scale + SHOWN_DECIMALS);
    this.over = denominator.units * pow10(numerator.scale);
    this.exact = `${numerator.units}e-${numerator.scale}/${denominator.units}e-${denominator.scale}`;
  }

  /**
   * value × factor in millionths, rounded half-up: (v·n·10^sd) / (d·10^(sv+sn)), ×10^6. For a
   * positive quotient N/D, floor((2N + D) / 2D) is N/D rounded half-up in one division (a bulk
   * conversion does 25 of these per answer; three BigInt operations instead of seven).
   */
  millionthsOf(value: Decimal): bigint {
    const [divisor, twiceDivisor] = this.divisorsFor(value.scale);
    if (value.units < 0n || this.twiceTimes < 0n) return roundedQuotient((value.units * this.twiceTimes) / 2n, divisor);
    return (value.units * this.twiceTimes + divisor) / twiceDivisor;
  }

  private divisorsFor(scale: number): [bigint, bigint] {
    const known = this.divisors[scale];
    if (known) return known;
    const divisor = this.over * pow10(scale);
    const pair: [bigint, bigint] = [divisor, 2n * divisor];
    if (scale <= 12) this.divisors[scale] = pair;
    return pair;
  }
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
