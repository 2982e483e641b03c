import { z } from 'zod';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import { positiveAmount } from '../../domain/money.js';
import { fluctuation, ratesBetween } from '../../domain/range-queries.js';
import { conversion, conversionPlan, latestRates, ratesOn } from '../../domain/rate-queries.js';
import type { RatesSnapshot } from '../../domain/snapshot.js';
import type { SourceDescription } from '../../domain/source-values.js';
import { Conversion } from '../endpoints/convert.js';
import { CurrencyList } from '../endpoints/currencies.js';
import { Fluctuation } from '../endpoints/fluctuation.js';
import { RateSet } from '../endpoints/latest-rates.js';
import { convertQuery, dateParams, dateRangeOf, rangeParams, rateSetOf, rateSetQuery } from '../endpoints/parameters.js';
import { RateRange } from '../endpoints/rate-range.js';
import { sourceEntry, SourceList } from '../endpoints/sources.js';
import { validateParts } from '../endpoints/validate-parts.js';
import { amountText, codeList, given, leniently, type ToolArguments } from './tool-arguments.js';

/** What a tool answers from, as an HTTP endpoint does: the rates in memory, the currencies served, the enabled sources. */
export interface ToolData {
  snapshot: RatesSnapshot;
  tracked: TrackedCurrencies;
  sources: readonly SourceDescription[];
}

/** One MCP tool over the same domain queries and validation as its HTTP endpoint (DECISIONS §17). */
export interface RateTool {
  name: string;
  title: string;
  description: string;
  /** The arguments as the client is told to send them; every value reaches `answer`, which checks them. */
  input: z.ZodObject;
  output: z.ZodObject;
  /**
   * The structured answer, the HTTP endpoint's 200 body with the same strings; throws the API's
   * refusals: an HttpError 400 with the API's messages, or the domain's errors (unknown currency,
   * amount not positive, no data).
   */
  answer(data: ToolData, args: ToolArguments): object;
}

/** The API's validation of path-like and query-like arguments together: one 400 lists every failed rule. */
function validated<P extends z.ZodType, Q extends z.ZodType>(schemas: { params?: P; querystring?: Q }, params: unknown, query: unknown) {
  const input = validateParts(schemas, params, query);
  if (!input.ok) throw input.error;
  return input;
}

/**
 * An HTTP body's schema as a tool's output schema: the same fields, without the OpenAPI component
 * id, which would make the JSON Schema a bare `$ref` where MCP wants `"type": "object"`.
 */
const answerOf = (body: z.ZodObject) => z.strictObject(body.shape).describe(body.description ?? '');

const code = (description: string) => z.string().regex(/^[A-Za-z]{3}$/).describe(description);
const day = (description: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe(description);
const symbols = z
  .array(z.string().regex(/^[A-Za-z]{3}$/))
  .min(1)
  .optional()
  .describe('Currency codes to return (default: every currency served)');
const base = code('The base currency (default EUR)').optional();

/** The rate-set arguments as the API's query: `symbols` as its comma-separated text. */
const rateSetArguments = (args: ToolArguments) => ({ base: given(args.base), symbols: codeList(args.symbols) });

const convertTool: RateTool = {
  name: 'convert',
  title: 'Convert an amount',
  description:
    'Converts an amount from one currency into another at the latest rates, or at those of `date` exactly. ' +
    'result = amount × rate, computed in exact decimals and rounded once, half-up, to 6 decimals. Same answer as GET /api/v1/convert.',
  input: leniently(
    z.object({
      amount: z
        .union([z.string().regex(/^[+-]?(\d+(\.\d+)?|\.\d+)$/), z.number()])
        .describe('The amount in `from`, positive: a decimal string such as "100.50" (a JSON number is read too)'),
      from: code('The currency held, e.g. "USD"'),
      to: code('The currency to convert into, e.g. "JPY"'),
      date: day('Convert with the rates of this day, YYYY-MM-DD (default: the latest)').optional(),
    }),
  ),
  output: answerOf(Conversion),
  answer({ snapshot, tracked }, args) {
    const { query } = validated(
      { querystring: convertQuery },
      {},
      { from: args.from, to: args.to, amount: amountText(args.amount), date: given(args.date) },
    );
    // DECISIONS §1: the amount's positivity before the currencies, as GET /convert checks them.
    const value = positiveAmount(query.amount);
    return conversion(conversionPlan(snapshot, tracked, query.from, query.to, query.date), query.amount, value);
  },
};

const ratesTool: RateTool = {
  name: 'rates',
  title: 'Exchange rates',
  description:
    'The rates of every served currency (or of `symbols`) against `base` on the latest day on which they all have ' +
    'rates, or on `date` exactly (a weekend or holiday has none). Same answer as GET /api/v1/rates/latest and /rates/{date}.',
  input: leniently(z.object({ base, symbols, date: day('The day of the rates, YYYY-MM-DD (default: the latest)').optional() })),
  output: answerOf(RateSet),
  answer({ snapshot, tracked }, args) {
    const date = given(args.date);
    if (date === undefined) return latestRates(snapshot, tracked, rateSetOf(validated({ querystring: rateSetQuery }, {}, rateSetArguments(args)).query));
    const { params, query } = validated({ params: dateParams, querystring: rateSetQuery }, { date }, rateSetArguments(args));
    return ratesOn(snapshot, tracked, params.date, rateSetOf(query));
  },
};

const rangeInput = leniently(
  z.object({
    start: day('The first day, YYYY-MM-DD'),
    end: day('The last day, YYYY-MM-DD; an empty string reaches the newest day with rates'),
    base,
    symbols,
  }),
);

const rangeArguments = (args: ToolArguments) => ({ start: args.start, end: args.end });

const historyTool: RateTool = {
  name: 'history',
  title: 'Rates over a range of days',
  description:
    'The rate set of every day from `start` to `end` (both included) on which the base has rates, oldest first. ' +
    'Each day is as the rates tool gives it. Same answer as GET /api/v1/rates/{start}..{end}.',
  input: rangeInput,
  output: answerOf(RateRange),
  answer({ snapshot, tracked }, args) {
    const { params, query } = validated({ params: rangeParams, querystring: rateSetQuery }, rangeArguments(args), rateSetArguments(args));
    const range = ratesBetween(snapshot, tracked, dateRangeOf(params), rateSetOf(query));
    return { base: range.base, start_date: range.start_date, end_date: range.end_date, rates: Object.fromEntries(range.days()) };
  },
};

const fluctuationTool: RateTool = {
  name: 'fluctuation',
  title: 'How rates moved over a range',
  description:
    'For each currency: its first and last day with a rate between `start` and `end`, both rates, and change = end − start ' +
    'and change_pct = change / start × 100, from the exact rates. Same answer as GET /api/v1/fluctuation/{start}..{end}.',
  input: rangeInput,
  output: answerOf(Fluctuation),
  answer({ snapshot, tracked }, args) {
    const { params, query } = validated({ params: rangeParams, querystring: rateSetQuery }, rangeArguments(args), rateSetArguments(args));
    return fluctuation(snapshot, tracked, dateRangeOf(params), rateSetOf(query));
  },
};

// A tool's structured content is an object: the HTTP endpoints' arrays go under one key.
const currenciesTool: RateTool = {
  name: 'currencies',
  title: 'Served currencies',
  description: 'Every currency served, sorted by code, with its English name and symbol, under `currencies`. Same list as GET /api/v1/currencies.',
  input: z.object({}),
  output: z.object({ currencies: CurrencyList }),
  answer: ({ tracked }) => ({ currencies: tracked.list }),
};

const sourcesTool: RateTool = {
  name: 'sources',
  title: 'Rate sources',
  description:
    'Each central bank the rates come from, in priority order, with the currencies and days stored of it, under `sources`. ' +
    'Same list as GET /api/v1/sources.',
  input: z.object({}),
  output: z.object({ sources: SourceList }),
  answer: ({ snapshot, sources }) => ({ sources: sources.map((source) => sourceEntry(source, snapshot.spanOf(source.id))) }),
};

/** The tools of POST /mcp, in the order tools/list gives them. */
export const RATE_TOOLS: readonly RateTool[] = [convertTool, ratesTool, historyTool, fluctuationTool, currenciesTool, sourcesTool];
