import { z } from 'zod';
import { isValidIsoDate } from '../domain/calendar-date.js';
import { NUMERIC_STRING } from '../domain/money.js';

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
} as const;

const CODE = /^[A-Za-z]{3}$/;
const CODE_LIST = /^[A-Za-z]{3}(,[A-Za-z]{3})*$/;
export const MAX_BULK_TARGETS = 25;

/** A string matching `pattern`; anything else (missing, repeated, malformed) fails with `message`. */
const text = (pattern: RegExp, message: string) =>
  z.string({ error: message }).regex(pattern, { error: message });

const code = (message: string) => text(CODE, message).meta({ example: 'USD' });

export const rateSetQuery = z.object({
  base: code(MESSAGES.base).optional().describe('Base currency (default EUR)'),
  symbols: text(CODE_LIST, MESSAGES.symbols)
    .optional()
    .describe('Comma-separated currency codes to return (default: every tracked currency)'),
});

export const dateParams = z.object({
  date: z
    .string({ error: MESSAGES.date })
    .refine(isValidIsoDate, { error: MESSAGES.date })
    .describe('A calendar date, YYYY-MM-DD'),
});

const amount = text(NUMERIC_STRING, MESSAGES.amount)
  .describe('Amount in the `from` currency, a positive decimal number');

export const convertQuery = z.object({
  from: code(MESSAGES.from).describe('The currency held'),
  to: code(MESSAGES.to).describe('The currency to convert into'),
  amount,
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
});
