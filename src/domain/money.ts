import BigPkg from 'big.js';
import type { Big as BigType } from 'big.js';

/**
 * Exact decimal arithmetic for every money path. A dedicated constructor keeps our rounding
 * (6 places, half-up) from leaking into or being changed by any other user of big.js, and strict
 * mode refuses JavaScript numbers so a binary float can never slip in.
 */
const Dec = BigPkg();
Dec.DP = 6;
Dec.RM = 1; // round half-up
Dec.strict = true;

export type Decimal = BigType;

export const SHOWN_DECIMALS = 6;

/** Numeric string per DECISIONS §2: optional sign, digits with optional fraction, or `.5`. */
export const NUMERIC_STRING = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

/** Parses a string already known to be numeric (big.js has no leading '+'). */
export function decimal(text: string): Decimal {
  return new Dec(text.startsWith('+') ? text.slice(1) : text);
}

const ZERO = new Dec('0');

export function isPositive(value: Decimal): boolean {
  return value.gt(ZERO);
}

/** value × numerator / denominator, exact until the single final rounding to 6 places half-up. */
export function scaleRounded(value: Decimal, numerator: Decimal, denominator: Decimal): string {
  return value.times(numerator).div(denominator).toFixed(SHOWN_DECIMALS, 1);
}

/** numerator / denominator rounded once to 6 places half-up. */
export function ratioRounded(numerator: Decimal, denominator: Decimal): string {
  return numerator.div(denominator).toFixed(SHOWN_DECIMALS, 1);
}
