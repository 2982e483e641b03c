import type { TrackedCurrencies } from './currencies.js';
import { NoDataError, UnknownCurrencyError } from './errors.js';
import { quotient, roundedRatio, ScaleFactor, scaledBy, scaledRounded, SHOWN_DECIMALS, type Decimal, type Ratio } from './money.js';
import type { Day } from './day.js';
import type { RatesSnapshot } from './snapshot.js';

export interface RateSet {
  base: string;
  date: string;
  rates: Record<string, string>;
}

export interface Conversion {
  from: string;
  to: string;
  amount: string;
  result: string;
  rate: string;
  date: string;
}

export interface BulkConversion {
  from: string;
  amount: string;
  date: string;
  conversions: { to: string; result: string; rate: string }[];
}

export interface RateSetQuery {
  base?: string | undefined;
  symbols?: readonly string[] | undefined;
  /** Fractional digits shown (DECISIONS §15); absent: 6. */
  places?: number | undefined;
  /** Rates of this amount of the base rather than of one unit (DECISIONS §16, Frankfurter's `amount`). */
  amount?: Decimal | undefined;
}

/** What a day's rate pair gives every request about it: the shown rate, and the factor amounts are scaled by. */
class Pair {
  private scale: ScaleFactor | undefined;
  readonly exact: Ratio;
  readonly rate: string;

  constructor(toRate: Ratio, fromRate: Ratio) {
    this.exact = quotient(toRate, fromRate);
    this.rate = roundedRatio(this.exact);
  }

  /** Prepared on the first conversion: rate sets only ever need the shown rate. */
  get factor(): ScaleFactor {
    return (this.scale ??= new ScaleFactor(this.exact));
  }
}

/**
 * Days' rate pairs, each computed once: a bulk conversion asks for up to 25 of them, and the same
 * pairs come back all day. Bounded across all days (a client walking every date in every base
 * would otherwise fill memory): past MAX_PAIRS the memory starts over.
 */
const MAX_PAIRS = 100_000;
let pairs = new WeakMap<Day, Map<string, Pair>>();
let pairCount = 0;

/** How many pairs are remembered now (for the test that holds the bound). */
export function rememberedPairs(): number {
  return pairCount;
}

function pairOn(day: Day, from: string, to: string): Pair {
  let ofDay = pairs.get(day);
  const key = `${from}${to}`;
  let pair = ofDay?.get(key);
  if (pair !== undefined) return pair;
  if (++pairCount > MAX_PAIRS) {
    pairs = new WeakMap();
    pairCount = 1;
    ofDay = undefined;
  }
  if (!ofDay) pairs.set(day, (ofDay = new Map()));
  ofDay.set(key, (pair = new Pair(day.rate(to)!, day.rate(from)!)));
  return pair;
}

/** Upper-cased, repeats folded, first-seen order kept (DECISIONS §2: `JPY,jpy` is one code). */
function distinctCodes(codes: readonly string[]): string[] {
  return [...new Set(codes.map((code) => code.toUpperCase()))];
}

/** DECISIONS §1.6: the first untracked code in parameter order is the one reported. */
function requireTracked(tracked: TrackedCurrencies, codes: readonly string[]): void {
  const unknown = codes.find((code) => !tracked.has(code));
  if (unknown) throw new UnknownCurrencyError(unknown);
}

/**
 * A day's rates in `base` of each of `codes` quoted that day, in the order given; undefined when
 * the base itself is not quoted that day.
 */
export function ratesIn(
  day: Day,
  base: string,
  codes: Iterable<string>,
  places = SHOWN_DECIMALS,
  amount?: Decimal,
): Record<string, string> | undefined {
  const baseRate = day.rate(base);
  if (baseRate === undefined) return undefined;
  const rates: Record<string, string> = {};
  // Computed afresh, not through the pairs kept for conversions: a rate set's answer is kept whole
  // (http/response-cache.ts), and a range's thousands of days would only churn the pairs.
  for (const code of codes) {
    const rate = day.rate(code);
    if (rate === undefined) continue;
    const exact = quotient(rate, baseRate);
    // An amount is multiplied in before the one rounding, as a conversion is.
    rates[code] = amount === undefined ? roundedRatio(exact, places) : scaledRounded(amount, exact, places);
  }
  return rates;
}

/** The codes a rate set lists: the symbols asked for, else every tracked code, alphabetical. */
export function listedCodes(symbols: readonly string[] | undefined, tracked: TrackedCurrencies): Iterable<string> {
  return symbols ? [...symbols].sort() : tracked.codes;
}

function rateSetOf(day: Day, base: string, symbols: readonly string[] | undefined, tracked: TrackedCurrencies, query: RateSetQuery): RateSet {
  const rates = ratesIn(day, base, listedCodes(symbols, tracked), query.places, query.amount);
  if (!rates) throw new NoDataError(day.date);
  return { base, date: day.date, rates };
}

/** A rate-set query's base (default EUR) and symbols, normalised; an untracked code is refused. */
export function parseRateSetQuery(tracked: TrackedCurrencies, query: RateSetQuery): { base: string; symbols: string[] | undefined } {
  const base = (query.base ?? 'EUR').toUpperCase();
  const symbols = query.symbols ? distinctCodes(query.symbols) : undefined;
  requireTracked(tracked, [base, ...(symbols ?? [])]);
  return { base, symbols };
}

export function latestRates(snapshot: RatesSnapshot, tracked: TrackedCurrencies, query: RateSetQuery): RateSet {
  const { base, symbols } = parseRateSetQuery(tracked, query);
  const day = snapshot.latestWith([base, ...(symbols ?? [])]);
  if (!day) throw new NoDataError();
  return rateSetOf(day, base, symbols, tracked, query);
}

export function ratesOn(snapshot: RatesSnapshot, tracked: TrackedCurrencies, date: string, query: RateSetQuery): RateSet {
  const { base, symbols } = parseRateSetQuery(tracked, query);
  const day = snapshot.day(date);
  if (!day) throw new NoDataError(date);
  return rateSetOf(day, base, symbols, tracked, query);
}

/**
 * DECISIONS §16: the rate set of `date`, or, when that day lacks the base or a symbol asked for,
 * of the nearest earlier day that has them all (Frankfurter's rule for a weekend or a holiday, and
 * "latest" as of that day); the answer's `date` shows the day used.
 */
export function ratesAsOf(snapshot: RatesSnapshot, tracked: TrackedCurrencies, date: string, query: RateSetQuery): RateSet {
  const { base, symbols } = parseRateSetQuery(tracked, query);
  const day = snapshot.lastWithOnOrBefore([base, ...(symbols ?? [])], date);
  if (!day) throw new NoDataError(date);
  return rateSetOf(day, base, symbols, tracked, query);
}

/**
 * What converting some amount from one currency into others needs, whatever the amount: the day,
 * and each target's shown rate and factor. A single conversion is a plan with one target.
 */
export interface ConversionPlan {
  from: string;
  date: string;
  /** `exact`: rate(to) / rate(from), for a `precision` other than the 6 `rate` and `factor` serve. */
  targets: readonly { to: string; rate: string; factor: ScaleFactor; exact: Ratio }[];
}

/**
 * Plans by snapshot, then by `from` and `to` as asked: the same conversion question comes back
 * with new amounts all day, and its codes are checked, its day found and its pairs prepared only once.
 */
const plans = new WeakMap<RatesSnapshot, { size: number; byFrom: Map<string, Map<string, ConversionPlan>> }>();

/**
 * `to` as asked: one code, or comma-separated codes, any case, repeats allowed (validated by the
 * caller). Codes are checked in parameter order (DECISIONS §1.6); the day is `date` when given
 * (DECISIONS §8: that day exactly, quoting them all), else the latest day quoting them all.
 */
export function conversionPlan(
  snapshot: RatesSnapshot,
  tracked: TrackedCurrencies,
  from: string,
  to: string,
  date?: string | undefined,
): ConversionPlan {
  let ofSnapshot = plans.get(snapshot);
  if (!ofSnapshot) plans.set(snapshot, (ofSnapshot = { size: 0, byFrom: new Map() }));
  const question = date === undefined ? to : `${to}@${date}`;
  const known = ofSnapshot.byFrom.get(from)?.get(question);
  if (known) return known;
  const fromCode = from.toUpperCase();
  const targets = distinctCodes(to.split(','));
  const codes = [fromCode, ...targets];
  requireTracked(tracked, codes);
  const day = date === undefined ? snapshot.latestWith(codes) : snapshot.day(date);
  if (!day || !codes.every((code) => day.has(code))) throw new NoDataError(date);
  const plan = {
    from: fromCode,
    date: day.date,
    targets: targets.map((code) => {
      const pair = pairOn(day, fromCode, code);
      return { to: code, rate: pair.rate, factor: pair.factor, exact: pair.exact };
    }),
  };
  // Bounded: a flood of distinct questions only starts the memory over.
  if (ofSnapshot.size >= 10_000) {
    ofSnapshot.byFrom.clear();
    ofSnapshot.size = 0;
  }
  let ofFrom = ofSnapshot.byFrom.get(from);
  if (!ofFrom) ofSnapshot.byFrom.set(from, (ofFrom = new Map()));
  ofFrom.set(question, plan);
  ofSnapshot.size++;
  return plan;
}

/** GET /convert's answer: `amountText` echoed as sent, `amount` its value; the plan has one target. */
export function conversion(plan: ConversionPlan, amountText: string, amount: Decimal, places = SHOWN_DECIMALS): Conversion {
  const { to, rate, factor, exact } = plan.targets[0]!;
  // 6 digits (the default) keep the prepared pair's path; any other precision rounds the exact rate afresh.
  if (places === SHOWN_DECIMALS) return { from: plan.from, to, amount: amountText, result: scaledBy(amount, factor), rate, date: plan.date };
  return { from: plan.from, to, amount: amountText, result: scaledRounded(amount, exact, places), rate: roundedRatio(exact, places), date: plan.date };
}

/** GET /convert/bulk's answer: one entry per distinct target, in the order asked. */
export function bulkConversion(plan: ConversionPlan, amountText: string, amount: Decimal, places = SHOWN_DECIMALS): BulkConversion {
  const conversions =
    places === SHOWN_DECIMALS
      ? plan.targets.map(({ to, rate, factor }) => ({ to, result: scaledBy(amount, factor), rate }))
      : plan.targets.map(({ to, exact }) => ({ to, result: scaledRounded(amount, exact, places), rate: roundedRatio(exact, places) }));
  return { from: plan.from, amount: amountText, date: plan.date, conversions };
}
