import { z } from 'zod';
import { positiveAmount } from '../../domain/money.js';
import { fluctuation, ratesBetween } from '../../domain/range-queries.js';
import { conversion, conversionPlan, latestRates, ratesOn } from '../../domain/rate-queries.js';
import { Conversion, convertEndpoint } from '../endpoints/convert.js';
import { CurrencyList, currenciesEndpoint } from '../endpoints/currencies.js';
import type { RatesData } from '../endpoints/endpoint.js';
import { Fluctuation } from '../endpoints/fluctuation.js';
import { latestRatesEndpoint, RateSet } from '../endpoints/latest-rates.js';
import { convertQuery, dateParams, dateRangeOf, placesOf, rangeParams, rateSetOf, rateSetQuery } from '../endpoints/parameters.js';
import { RateRange } from '../endpoints/rate-range.js';
import { sourceEntry, SourceList, sourcesEndpoint } from '../endpoints/sources.js';
import { validateParts, type AppRules } from '../endpoints/validate-parts.js';
import type { Turns } from '../taking-turns.js';
import { rangeInTurns } from './range-in-turns.js';
import { amountText, codeList, given, leniently, precisionText, type ToolArguments } from './tool-arguments.js';

/**
 * What a call is answered from: the data an HTTP endpoint answers from (the rates in memory, each
 * enabled source's alone, the currencies served, the enabled sources), the app's rule for
 * `source` (its enabled ids), and the app's one queue of heavy work.
 */
export interface ToolContext {
  data: RatesData;
  rules: AppRules;
  turns: Turns;
}

/** A tool's answer: the HTTP endpoint's 200 body, and that body's JSON text, the same bytes as the HTTP answer. */
export interface ToolAnswer {
  structured: object;
  text: string;
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
   * The answer, with the strings of the HTTP endpoint's 200 body; rejects with the API's
   * refusals: an HttpError 400 with the API's messages, or the domain's errors (unknown currency,
   * amount not positive, no data).
   */
  answer(context: ToolContext, args: ToolArguments): Promise<ToolAnswer>;
}

/** A body small enough to be written at once. */
const whole = (body: object): ToolAnswer => ({ structured: body, text: JSON.stringify(body) });

/** The API's validation of path-like and query-like arguments together: one 400 lists every failed rule. */
function validated<P extends z.ZodType, Q extends z.ZodType>(schemas: { params?: P; querystring?: Q }, params: unknown, query: unknown, rules: AppRules) {
  const input = validateParts(schemas, params, query, rules);
  if (!input.ok) throw input.error;
  return input;
}

/**
 * An HTTP body's schema as a tool's output schema: the same fields, without the OpenAPI component
 * id, which would make the JSON Schema a bare `$ref` where MCP wants `"type": "object"`.
 */
const answerOf = (body: z.ZodObject) => z.strictObject(body.shape).describe(body.description ?? '');

/**
 * answerOf, its field `name` shown whole in tools/list but not checked by the SDK in each answer:
 * for the history's `rates`, that check would go over every rate of the whole history in one go,
 * holding the event loop. They are the HTTP endpoint's own, typed end to end (range-in-turns.ts).
 */
function shownNotChecked(body: z.ZodObject, name: string): z.ZodObject {
  const { $schema: _draft, ...shown } = z.toJSONSchema(body.shape[name]!, { io: 'output', target: 'draft-7' });
  return z.strictObject({ ...body.shape, [name]: z.unknown().meta(shown) }).describe(body.description ?? '');
}

const code = (description: string) => z.string().regex(/^[A-Za-z]{3}$/).describe(description);
const day = (description: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe(description);
const symbols = z
  .array(z.string().regex(/^[A-Za-z]{3}$/))
  .min(1)
  .optional()
  .describe('Currency codes to return (default: every currency served)');
const base = code('The base currency (default EUR)').optional();
// DECISIONS §15, as the HTTP parameters of the same names (parameters.ts).
const source = z
  .string()
  .optional()
  .describe('The id of one enabled source (the sources tool lists them): the rates of that source alone (default: each rate from the first source that has it)');
const precision = z.int().min(0).max(12).optional().describe('Fractional digits of every rate and result, 0 to 12 (default 6), rounded once half-up');

/** `source` and `precision` as the API's query takes them, checked by its closing rules, in its order. */
const closingArguments = (args: ToolArguments) => ({ source: given(args.source), precision: precisionText(args.precision) });

/** The rate-set arguments as the API's query: `symbols` as its comma-separated text. */
const rateSetArguments = (args: ToolArguments) => ({ base: given(args.base), symbols: codeList(args.symbols), ...closingArguments(args) });

const convertTool: RateTool = {
  name: 'convert',
  title: 'Convert an amount',
  description:
    'Converts an amount from one currency into another at the latest rates, or at those of `date` exactly. ' +
    `result = amount × rate, computed in exact decimals and rounded once, half-up, to 6 decimals (or \`precision\`). Same answer as GET ${convertEndpoint.path}.`,
  input: leniently(
    z.object({
      amount: z
        .union([z.string().regex(/^[+-]?(\d+(\.\d+)?|\.\d+)$/), z.number()])
        .describe('The amount in `from`, positive: a decimal string such as "100.50" (a JSON number is read too)'),
      from: code('The currency held, e.g. "USD"'),
      to: code('The currency to convert into, e.g. "JPY"'),
      date: day('Convert with the rates of this day, YYYY-MM-DD (default: the latest)').optional(),
      source,
      precision,
    }),
  ),
  output: answerOf(Conversion),
  async answer({ data: { ratesOf, tracked }, rules }, args) {
    const { query } = validated(
      { querystring: convertQuery },
      {},
      { from: args.from, to: args.to, amount: amountText(args.amount), date: given(args.date), ...closingArguments(args) },
      rules,
    );
    // DECISIONS §1: the amount's positivity before the currencies, as GET /convert checks them.
    const value = positiveAmount(query.amount);
    const plan = conversionPlan(ratesOf(query.source), tracked, query.from, query.to, query.date);
    return whole(conversion(plan, query.amount, value, placesOf(query.precision)));
  },
};

const ratesTool: RateTool = {
  name: 'rates',
  title: 'Exchange rates',
  description:
    'The rates of every served currency (or of `symbols`) against `base` on the latest day on which they all have ' +
    `rates, or on \`date\` exactly (a weekend or holiday has none). Same answer as GET ${latestRatesEndpoint.path} and /rates/{date}.`,
  input: leniently(z.object({ base, symbols, date: day('The day of the rates, YYYY-MM-DD (default: the latest)').optional(), source, precision })),
  output: answerOf(RateSet),
  async answer({ data: { ratesOf, tracked }, rules }, args) {
    const date = given(args.date);
    if (date === undefined) {
      const { query } = validated({ querystring: rateSetQuery }, {}, rateSetArguments(args), rules);
      return whole(latestRates(ratesOf(query.source), tracked, rateSetOf(query)));
    }
    const { params, query } = validated({ params: dateParams, querystring: rateSetQuery }, { date }, rateSetArguments(args), rules);
    return whole(ratesOn(ratesOf(query.source), tracked, params.date, rateSetOf(query)));
  },
};

const rangeInput = leniently(
  z.object({
    start: day('The first day, YYYY-MM-DD'),
    end: day('The last day, YYYY-MM-DD; an empty string reaches the newest day with rates'),
    base,
    symbols,
    source,
    precision,
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
  output: shownNotChecked(RateRange, 'rates'),
  async answer({ data: { ratesOf, tracked }, rules, turns }, args) {
    const { params, query } = validated({ params: rangeParams, querystring: rateSetQuery }, rangeArguments(args), rateSetArguments(args), rules);
    return rangeInTurns(ratesBetween(ratesOf(query.source), tracked, dateRangeOf(params), rateSetOf(query)), turns);
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
  async answer({ data: { ratesOf, tracked }, rules }, args) {
    const { params, query } = validated({ params: rangeParams, querystring: rateSetQuery }, rangeArguments(args), rateSetArguments(args), rules);
    return whole(fluctuation(ratesOf(query.source), tracked, dateRangeOf(params), rateSetOf(query)));
  },
};

// A tool's structured content is an object: the HTTP endpoints' arrays go under one key.
const currenciesTool: RateTool = {
  name: 'currencies',
  title: 'Served currencies',
  description: `Every currency served, sorted by code, with its English name and symbol, under \`currencies\`. Same list as GET ${currenciesEndpoint.path}.`,
  input: z.object({}),
  output: z.object({ currencies: CurrencyList }),
  answer: async ({ data: { tracked } }) => whole({ currencies: tracked.list }),
};

const sourcesTool: RateTool = {
  name: 'sources',
  title: 'Rate sources',
  description:
    'Each central bank the rates come from, in priority order, with the currencies and days stored of it, under `sources`. ' +
    `Same list as GET ${sourcesEndpoint.path}.`,
  input: z.object({}),
  output: z.object({ sources: SourceList }),
  answer: async ({ data: { snapshot, sources } }) => whole({ sources: sources.map((source) => sourceEntry(source, snapshot.spanOf(source.id))) }),
};

/** The tools of POST /mcp, in the order tools/list gives them. */
export const RATE_TOOLS: readonly RateTool[] = [convertTool, ratesTool, historyTool, fluctuationTool, currenciesTool, sourcesTool];
