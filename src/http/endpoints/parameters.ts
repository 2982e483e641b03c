import { z } from 'zod';
import { isValidIsoDate } from '../../domain/calendar-date.js';
import { NUMERIC_STRING } from '../../domain/money.js';
import type { DateRange } from '../../domain/range-queries.js';
import type { RateSetQuery } from '../../domain/rate-queries.js';
import { sourcesEndpoint } from './sources.js';
import { AppRules } from './validate-parts.js';

/** SPEC §7's validation messages, verbatim. */
export const MESSAGES = {
  from: 'from must be a 3-letter currency code',
  to: 'to must be a 3-letter currency code',
  toList: 'to must be a comma-separated list of 3-letter currency codes',
  toMin: 'to must contain at least 1 currency code',
  toMax: 'to must contain at most 25 currency codes',
  amount: 'amount must be a numeric string',
  base: 'base must be a 3-letter currency code',
  symbols: 'symbols must be a comma-separated list of 3-letter currency codes',
  date: 'date must be a valid calendar date in YYYY-MM-DD format',
  start: 'start must be a valid calendar date in YYYY-MM-DD format',
  end: 'end must be a valid calendar date in YYYY-MM-DD format',
  order: 'end must not be before start',
  precision: 'precision must be an integer from 0 to 12',
  format: 'format must be one of: json, csv, ndjson',
} as const;

const CODE = /^[A-Za-z]{3}$/;
export const CODE_LIST = /^[A-Za-z]{3}(,[A-Za-z]{3})*$/;
export const MAX_BULK_TARGETS = 25;

/** A string matching `pattern`; anything else (missing, repeated, malformed) fails with `message`. */
export const text = (pattern: RegExp, message: string) =>
  z.string({ error: message }).regex(pattern, { error: message });

export const code = (message: string) => text(CODE, message).meta({ example: 'USD' });

/**
 * DECISIONS §15: 0 to 12 written plainly, as the messages' "an integer from 0 to 12" reads:
 * no sign, no leading zero, no point, not empty, not repeated (DECISIONS §2), so each precision
 * has one spelling. `06`, `+6`, `6.0`, `` and `precision=6&precision=6` are refused.
 */
const PRECISION = /^(\d|1[0-2])$/;
// The example is the default: /docs's "Try it out" sends it, and its answer must be the default one.
const precision = text(PRECISION, MESSAGES.precision)
  .optional()
  .meta({ example: '6' })
  .describe('Fractional digits of every rate and result, 0 to 12 (default 6), rounded once half-up');

const SOURCE_DESCRIPTION = `The id of one enabled source (GET ${sourcesEndpoint.path}): the rates of that source alone (default: each from the first source that has it)`;

/** DECISIONS §15: the message naming the enabled source ids, in priority order. */
export const sourceMessage = (ids: readonly string[]) => `source must be one of: ${ids.join(', ')}`;

/**
 * DECISIONS §15: the id of an enabled source, exactly as /sources lists it. Which ones are enabled
 * is the app's (SOURCES), so the rule that checks it is made per app and takes this one's place
 * (sourceRules, validate-parts.ts); this one documents the parameter.
 */
const source = z.string().optional().describe(SOURCE_DESCRIPTION);

/** The app's own rule for `source`: one of `ids`, a single value (DECISIONS §2: a repeat fails). */
export function sourceRules(ids: readonly string[]): AppRules {
  const message = sourceMessage(ids);
  return new AppRules({ source: z.string({ error: message }).refine((id) => ids.includes(id), { error: message }).optional().describe(SOURCE_DESCRIPTION) });
}

/**
 * DECISIONS §15: `source` then `precision` close the query's rules, so their messages follow every
 * other one in the 400 array, in that order; a `format` key goes just after.
 */
export const closing = { source, precision };

export const rateSetQuery = z.object({
  base: code(MESSAGES.base).optional().describe('Base currency (default EUR)'),
  symbols: text(CODE_LIST, MESSAGES.symbols)
    .optional()
    .describe('Comma-separated currency codes to return (default: every tracked currency)'),
  ...closing,
});

/** DECISIONS §14: how a range is written; it wins over Accept, and its message closes the array. */
export const rangeQuery = rateSetQuery.extend({
  format: z
    .enum(['json', 'csv', 'ndjson'], { error: MESSAGES.format })
    .optional()
    .describe('How the answer is written: json, csv or ndjson (default: as Accept asks, else json)'),
});

/** The fractional digits a validated `precision` asks for; absent: undefined (the default 6). */
export const placesOf = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** Any input (a repeated parameter is an array) that is a valid calendar date. */
const isDate = (value: unknown) => typeof value === 'string' && isValidIsoDate(value);

const calendarDate = (message: string) => z.string({ error: message }).refine(isValidIsoDate, { error: message });

export const dateParams = z.object({
  date: calendarDate(MESSAGES.date).describe('A calendar date, YYYY-MM-DD'),
});

/**
 * DECISIONS §8: the segment `{start}..{end}`; an empty end is open (up to the newest day). The
 * order is checked only once both dates are valid.
 */
export const rangeParams = z
  .object({
    start: calendarDate(MESSAGES.start).describe('The first day, YYYY-MM-DD'),
    end: z
      .string({ error: MESSAGES.end })
      .refine((value) => value === '' || isValidIsoDate(value), { error: MESSAGES.end })
      .describe('The last day, YYYY-MM-DD; empty: up to the newest day with rates'),
  })
  .refine(({ start, end }) => !(isDate(start) && isDate(end) && end < start), { error: MESSAGES.order });

/** DECISIONS §11: digits of an amount as written, before and after the point. */
export const MAX_AMOUNT_INTEGER_DIGITS = 30;
export const MAX_AMOUNT_FRACTION_DIGITS = 12;

/**
 * Within the digit limits; called only on a numeric string, so one failure gives one message.
 * Counted by hand: linear however long the value (the URL limit still allows kilobytes).
 */
export function withinAmountLimits(value: string): boolean {
  if (!NUMERIC_STRING.test(value)) return true;
  const sign = value.charCodeAt(0) === 43 /* + */ || value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const point = value.indexOf('.');
  const integerDigits = (point === -1 ? value.length : point) - sign;
  const fractionDigits = point === -1 ? 0 : value.length - point - 1;
  return integerDigits <= MAX_AMOUNT_INTEGER_DIGITS && fractionDigits <= MAX_AMOUNT_FRACTION_DIGITS;
}

// NUMERIC_STRING stays the documented pattern; the digit limits are a refinement of it with the
// same message, so an amount too long is "not a numeric string" like any other malformed one.
export const amount = text(NUMERIC_STRING, MESSAGES.amount)
  .refine(withinAmountLimits, { error: MESSAGES.amount })
  .describe('Amount in the `from` currency, a positive decimal number');

/** DECISIONS §8: a conversion on that day exactly; checked last. */
const conversionDate = calendarDate(MESSAGES.date).optional().describe('Convert with the rates of this day, YYYY-MM-DD (default: the latest)');

export const convertQuery = z.object({
  from: code(MESSAGES.from).describe('The currency held'),
  to: code(MESSAGES.to).describe('The currency to convert into'),
  amount,
  date: conversionDate,
  ...closing,
});

/** DECISIONS §2: missing or empty gives the minimum message alone; a repeat, the list message alone. */
const bulkTargets = z
  .string({ error: (issue) => (issue.input === undefined ? MESSAGES.toMin : MESSAGES.toList) })
  .superRefine((value, ctx) => {
    if (value === '') {
      ctx.addIssue({ code: 'custom', message: MESSAGES.toMin });
      return;
    }
    const items = value.split(',');
    if (!items.every((item) => CODE.test(item))) ctx.addIssue({ code: 'custom', message: MESSAGES.toList });
    if (items.length > MAX_BULK_TARGETS) ctx.addIssue({ code: 'custom', message: MESSAGES.toMax });
  })
  .describe('Comma-separated target currency codes, 1 to 25');

export const bulkQuery = z.object({
  from: code(MESSAGES.from).describe('The currency held'),
  amount,
  to: bulkTargets,
  date: conversionDate,
  ...closing,
});

/** The rate set a validated `base`/`symbols` query asks for. */
export const rateSetOf = ({ base, symbols, precision }: z.output<typeof rateSetQuery>): RateSetQuery => ({
  base,
  symbols: symbols?.split(','),
  places: placesOf(precision),
});

/** The days a validated `{start}..{end}` segment names; an empty end is open. */
export const dateRangeOf = ({ start, end }: z.output<typeof rangeParams>): DateRange => ({ start, end: end === '' ? undefined : end });
