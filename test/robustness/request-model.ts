import { STATUS_CODES } from 'node:http';
import { expectedRateSet, hasRate, latestDateWith, type History } from '../helpers/ecb-history-csv.js';
import { MSG, noDataInRange, noDataOn, unknownCurrency } from '../helpers/http-expect.js';
import { convertExact, crossRate } from '../helpers/oracle.js';
import { expectedFluctuation, expectedRange } from '../helpers/range-oracle.js';

/**
 * An executable model of SPEC §4–§7 and DECISIONS §1–§3 and §8, written from those documents and nothing
 * in src/: given a request exactly as sent, the status and body the service must answer. The
 * property suite compares every answer with it. Arithmetic comes from the BigInt oracle.
 */

export const DEFAULT_TRACKED = [
  'EUR', 'USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'ISK', 'NOK', 'TRY', 'AUD',
  'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR',
];

/** The limits the service documents (docs/api.md, "Limits"): a longer request target is a 414. */
export const MAX_URL_LENGTH = 8192;

export type Expected =
  | { status: 200; body: unknown }
  | { status: 200; currencies: true }
  | { status: 204 | 304 }
  | { status: number; message: string | string[] };

export interface ModelRequest {
  method: string;
  /** The request target as sent. */
  target: string;
  /** The Authorization header values, in order (Node keeps the first of repeated ones). */
  authorization: string[];
  ifNoneMatch?: string;
}

export interface ModelWorld {
  key: string;
  history: History;
  tracked: Set<string>;
}

// ---------------------------------------------------------------------------------------------
// The query string, as the HTTP layer hands it over: pairs split on '&' and the first '=', '+'
// read as a space, percent-escapes decoded as UTF-8; a component whose escapes are malformed is
// taken literally (after the '+' rule). Repeated names collect every value.

export function decodeComponent(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export function parseQuery(query: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    if (eq === -1 && name === '') continue;
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    const values = result.get(name) ?? [];
    values.push(value);
    result.set(name, values);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// DECISIONS §2: the parameter formats.

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

export function isCode(s: string): boolean {
  return s.length === 3 && [...s].every((ch) => isAsciiLetter(ch.charCodeAt(0)));
}

/** Codes joined by single commas: no spaces, no empty items. */
export function isCodeList(s: string): boolean {
  return s.split(',').every(isCode);
}

/**
 * Optional sign, then digits with an optional fraction, or a fraction alone: `12`, `12.5`, `.5`,
 * `+3`, `-2`; at most 30 digits before the point and 12 after.
 */
export function isNumeric(s: string): boolean {
  let i = s[0] === '+' || s[0] === '-' ? 1 : 0;
  const digitsFrom = (from: number) => {
    let j = from;
    while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
    return j;
  };
  const intEnd = digitsFrom(i);
  const hasInt = intEnd > i;
  if (intEnd - i > 30) return false;
  i = intEnd;
  if (i === s.length) return hasInt;
  if (s[i] !== '.') return false;
  const fracEnd = digitsFrom(i + 1);
  return fracEnd > i + 1 && fracEnd === s.length && fracEnd - (i + 1) <= 12;
}

export function isPositiveNumeric(s: string): boolean {
  return s[0] !== '-' && /[1-9]/.test(s);
}

/** YYYY-MM-DD naming a real day of the Gregorian calendar (year 0001 onwards). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** One value or why not: absent, given more than once. */
function single(query: Map<string, string[]>, name: string): string | undefined | 'repeated' {
  const values = query.get(name);
  if (values === undefined) return undefined;
  return values.length === 1 ? values[0]! : 'repeated';
}

const requiredCode = (v: string | undefined | 'repeated') => v !== undefined && v !== 'repeated' && isCode(v);
const optionalCode = (v: string | undefined | 'repeated') => v === undefined || (v !== 'repeated' && isCode(v));
const optionalList = (v: string | undefined | 'repeated') => v === undefined || (v !== 'repeated' && isCodeList(v));

/** DECISIONS §2 for bulk `to`: missing or empty → the minimum message alone; repeated → the list message alone. */
function bulkTargetMessages(v: string | undefined | 'repeated'): string[] {
  if (v === undefined || v === '') return [MSG.toMin];
  if (v === 'repeated') return [MSG.toList];
  const items = v.split(',');
  const messages: string[] = [];
  if (!items.every(isCode)) messages.push(MSG.toList);
  if (items.length > 25) messages.push(MSG.toMax);
  return messages;
}

// ---------------------------------------------------------------------------------------------
// Routing (DECISIONS §1.1) and the order of checks.

export type Route =
  | { name: 'latest' }
  | { name: 'date'; date: string }
  | { name: 'range' | 'fluctuation'; start: string; end: string }
  | { name: 'convert' }
  | { name: 'bulk' }
  | { name: 'currencies' };

/**
 * DECISIONS §8: a `{start}..{end}` segment (decoded) split at its first `..` after which no other
 * `..` follows; undefined without a `..`.
 */
export function rangeOf(segment: string): { start: string; end: string } | undefined {
  for (let at = segment.indexOf('..'); at !== -1; at = segment.indexOf('..', at + 1)) {
    const end = segment.slice(at + 2);
    if (!end.includes('..')) return { start: segment.slice(0, at), end };
  }
  return undefined;
}

/** The one path segment after `prefix`, percent-decoded; undefined when empty or more than one. */
function segmentAfter(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix) || path.length === prefix.length || path.slice(prefix.length).includes('/')) return undefined;
  return decodeURIComponent(path.slice(prefix.length));
}

/**
 * The route of a path written by the property generator: the seven endpoints exactly, the date
 * segments percent-encoded or not. Anything else is left to the caller (undefined).
 */
export function routeOf(path: string): Route | undefined {
  if (path === '/api/v1/rates/latest') return { name: 'latest' };
  if (path === '/api/v1/convert') return { name: 'convert' };
  if (path === '/api/v1/convert/bulk') return { name: 'bulk' };
  if (path === '/api/v1/currencies') return { name: 'currencies' };
  // An empty date segment (`/api/v1/rates/`) is no route: an unknown path.
  const rates = segmentAfter(path, '/api/v1/rates/');
  if (rates !== undefined) {
    const range = rangeOf(rates);
    if (range) return { name: 'range', ...range };
    return rates === 'latest' ? { name: 'latest' } : { name: 'date', date: rates };
  }
  const fluctuation = segmentAfter(path, '/api/v1/fluctuation/');
  const range = fluctuation === undefined ? undefined : rangeOf(fluctuation);
  return range ? { name: 'fluctuation', ...range } : undefined;
}

const REFUSED_METHODS = new Set(['DELETE', 'PATCH', 'POST', 'PUT']);

type Auth = 'ok' | 'malformed' | 'invalid';

/** DECISIONS §1.2: the scheme word in any case, one or more spaces, then one non-empty word. */
export function authOf(values: string[], key: string): Auth {
  // DECISIONS §11: two Authorization headers are malformed, whatever each holds.
  if (values.length !== 1) return 'malformed';
  const header = values[0]!;
  // The HTTP parser strips whitespace around a header value.
  const m = /^bearer +([^\s]+)$/i.exec(header.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (!m) return 'malformed';
  return m[1] === key ? 'ok' : 'invalid';
}

export function expectedAnswer(request: ModelRequest, world: ModelWorld): Expected {
  if (request.target.length > MAX_URL_LENGTH) return { status: 414, message: `The URL is longer than ${MAX_URL_LENGTH} characters` };
  const q = request.target.indexOf('?');
  const path = q === -1 ? request.target : request.target.slice(0, q);
  const route = routeOf(path);
  if (route === undefined) return { status: 404, message: `Cannot ${request.method} ${path}` };
  if (request.method === 'OPTIONS') return { status: 204 };
  if (REFUSED_METHODS.has(request.method)) return { status: 405, message: `Cannot ${request.method} ${path}` };

  const auth = authOf(request.authorization, world.key);
  if (auth === 'malformed') return { status: 401, message: MSG.malformedAuth };
  if (auth === 'invalid') return { status: 401, message: MSG.invalidKey };

  const answer = answerFor(route, parseQuery(q === -1 ? '' : request.target.slice(q + 1)), world);
  // If-None-Match: * matches any current representation (RFC 9110 §13.1.2).
  if (answer.status === 200 && request.ifNoneMatch?.trim() === '*') return { status: 304 };
  return answer;
}

function answerFor(route: Route, query: Map<string, string[]>, world: ModelWorld): Expected {
  if (route.name === 'currencies') return { status: 200, currencies: true };

  // Format rules, fields in the order of SPEC's parameter tables (DECISIONS §1.4).
  const messages: string[] = [];
  const amount = single(query, 'amount');
  const from = single(query, 'from');
  const to = single(query, 'to');
  const base = single(query, 'base');
  const symbols = single(query, 'symbols');
  // DECISIONS §8: an optional day on conversions, checked after the other parameters.
  const onDate = single(query, 'date');
  const dateValid = onDate === undefined || (onDate !== 'repeated' && isCalendarDate(onDate));
  if (route.name === 'convert') {
    if (!requiredCode(from)) messages.push(MSG.from);
    if (!requiredCode(to)) messages.push(MSG.to);
    if (amount === undefined || amount === 'repeated' || !isNumeric(amount)) messages.push(MSG.amount);
    if (!dateValid) messages.push(MSG.date);
  } else if (route.name === 'bulk') {
    if (!requiredCode(from)) messages.push(MSG.from);
    if (amount === undefined || amount === 'repeated' || !isNumeric(amount)) messages.push(MSG.amount);
    messages.push(...bulkTargetMessages(to));
    if (!dateValid) messages.push(MSG.date);
  } else {
    if (route.name === 'date' && !isCalendarDate(route.date)) messages.push(MSG.date);
    if (route.name === 'range' || route.name === 'fluctuation') {
      const startValid = isCalendarDate(route.start);
      const endValid = route.end === '' || isCalendarDate(route.end);
      if (!startValid) messages.push(MSG.start);
      if (!endValid) messages.push(MSG.end);
      if (startValid && endValid && route.end !== '' && route.end < route.start) messages.push(MSG.order);
    }
    if (!optionalCode(base)) messages.push(MSG.base);
    if (!optionalList(symbols)) messages.push(MSG.symbols);
  }
  if (messages.length > 0) return { status: 400, message: messages };

  // DECISIONS §1.5: then the sign of the amount.
  if ((route.name === 'convert' || route.name === 'bulk') && !isPositiveNumeric(amount as string)) {
    return { status: 400, message: MSG.positive };
  }

  // DECISIONS §1.6: then untracked codes, the first in parameter order, upper-cased.
  const up = (s: string) => s.toUpperCase();
  let codes: string[];
  if (route.name === 'convert') codes = [up(from as string), up(to as string)];
  else if (route.name === 'bulk') codes = [up(from as string), ...(to as string).split(',').map(up)];
  else codes = [up((base as string | undefined) ?? 'EUR'), ...((symbols as string | undefined)?.split(',').map(up) ?? [])];
  const untracked = codes.find((code) => !world.tracked.has(code));
  if (untracked !== undefined) return { status: 400, message: unknownCurrency(untracked) };

  // DECISIONS §1.7 and §3: data.
  const { history } = world;
  const tracked = [...world.tracked];
  if (route.name === 'range' || route.name === 'fluctuation') {
    const end = route.end === '' ? undefined : route.end;
    const expected = (route.name === 'range' ? expectedRange : expectedFluctuation)(history, route.start, end, codes[0]!, tracked, symbols === undefined ? undefined : codes.slice(1));
    return expected === undefined ? { status: 404, message: noDataInRange(route.start, end) } : { status: 200, body: expected };
  }
  if (route.name === 'date') {
    const day = history.get(route.date);
    const [baseCode] = codes as [string];
    if (day === undefined || !hasRate(day, baseCode)) return { status: 404, message: noDataOn(route.date) };
    return { status: 200, body: expectedRateSet(history, route.date, baseCode, tracked, symbols === undefined ? undefined : codes.slice(1)) };
  }
  let date: string | undefined;
  if ((route.name === 'convert' || route.name === 'bulk') && typeof onDate === 'string') {
    // A conversion on that day exactly: every currency must have a rate on it.
    const day = history.get(onDate);
    if (day === undefined || !codes.every((code) => hasRate(day, code))) return { status: 404, message: noDataOn(onDate) };
    date = onDate;
  } else {
    date = latestDateWith(history, codes);
    if (date === undefined) return { status: 404, message: MSG.noData };
  }
  const day = history.get(date)!;
  if (route.name === 'latest') {
    return { status: 200, body: expectedRateSet(history, date, codes[0]!, tracked, symbols === undefined ? undefined : codes.slice(1)) };
  }
  const [fromCode] = codes as [string];
  if (route.name === 'convert') {
    const toCode = codes[1]!;
    return {
      status: 200,
      body: { from: fromCode, to: toCode, amount, result: convertExact(day, fromCode, toCode, amount as string), rate: crossRate(day, fromCode, toCode), date },
    };
  }
  const targets = [...new Set(codes.slice(1))];
  return {
    status: 200,
    body: {
      from: fromCode,
      amount,
      date,
      conversions: targets.map((code) => ({ to: code, result: convertExact(day, fromCode, code, amount as string), rate: crossRate(day, fromCode, code) })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The shapes every answer must have, whatever was asked (SPEC §2 and §7).

const DECIMAL6 = /^\d+\.\d{6}$/;
/** Never "-0.000000" (DECISIONS §8). */
const SIGNED6 = /^(?!-0\.0{6}$)-?\d+\.\d{6}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (v: Record<string, unknown>, keys: string[]) => JSON.stringify(Object.keys(v)) === JSON.stringify(keys);

/** Undefined when `body` is one of the spec's shapes for `status`, else what is wrong. */
export function shapeProblem(status: number, body: unknown): string | undefined {
  if (status >= 400) {
    if (!isRecord(body)) return 'an error answer without a JSON object body';
    const expectedKeys = status === 429 ? ['statusCode', 'message'] : ['statusCode', 'message', 'error'];
    if (!keysAre(body, expectedKeys)) return `error body keys ${JSON.stringify(Object.keys(body))}`;
    if (body.statusCode !== status) return 'statusCode differs from the status';
    if (status !== 429 && body.error !== STATUS_CODES[status]) return `error is not the status text of ${status}`;
    const message = body.message;
    if (typeof message === 'string') return message.length > 0 ? undefined : 'empty message';
    if (Array.isArray(message) && status === 400 && message.length > 0 && message.every((m) => typeof m === 'string')) return undefined;
    return 'message is neither a string nor (for a 400) a non-empty array of strings';
  }
  if (status !== 200) return undefined;
  if (Array.isArray(body)) {
    const codes = body.map((c) => (isRecord(c) ? c.code : undefined));
    const ok = body.every((c) => isRecord(c) && keysAre(c, ['code', 'name', 'symbol']) && CODE.test(String(c.code)) && typeof c.name === 'string' && typeof c.symbol === 'string');
    return ok && JSON.stringify(codes) === JSON.stringify([...codes].sort()) ? undefined : 'not a sorted currency list';
  }
  if (!isRecord(body)) return 'a 200 without a JSON object or array';
  if (keysAre(body, ['base', 'date', 'rates'])) {
    const rates = body.rates;
    if (!CODE.test(String(body.base)) || !DATE.test(String(body.date)) || !isRecord(rates)) return 'bad rate set';
    const keys = Object.keys(rates);
    if (JSON.stringify(keys) !== JSON.stringify([...keys].sort())) return 'rates keys not sorted';
    return keys.every((k) => CODE.test(k) && DECIMAL6.test(String(rates[k]))) ? undefined : 'bad rate value';
  }
  if (keysAre(body, ['base', 'start_date', 'end_date', 'rates'])) {
    const entries = isRecord(body.rates) ? Object.entries(body.rates) : [];
    if (!CODE.test(String(body.base)) || !DATE.test(String(body.start_date)) || !DATE.test(String(body.end_date))) return 'bad range or fluctuation';
    const keys = entries.map(([key]) => key);
    if (JSON.stringify(keys) !== JSON.stringify([...keys].sort())) return 'range days or fluctuation codes not in order';
    const rangeDay = ([key, rates]: [string, unknown]) =>
      DATE.test(key) && isRecord(rates) && Object.keys(rates).every((code) => CODE.test(code) && DECIMAL6.test(String(rates[code])));
    const move = ([key, value]: [string, unknown]) =>
      CODE.test(key) && isRecord(value) && keysAre(value, ['start_date', 'end_date', 'start_rate', 'end_rate', 'change', 'change_pct']) &&
      DECIMAL6.test(String(value.start_rate)) && DECIMAL6.test(String(value.end_rate)) && SIGNED6.test(String(value.change)) && SIGNED6.test(String(value.change_pct));
    // A fluctuation whose symbols have no rate in the range moves nothing: `{}`.
    return entries.every(rangeDay) || entries.every(move) ? undefined : 'bad range day or fluctuation move';
  }
  if (keysAre(body, ['from', 'to', 'amount', 'result', 'rate', 'date'])) {
    return CODE.test(String(body.from)) && CODE.test(String(body.to)) && typeof body.amount === 'string' &&
      DECIMAL6.test(String(body.result)) && DECIMAL6.test(String(body.rate)) && DATE.test(String(body.date))
      ? undefined
      : 'bad conversion';
  }
  if (keysAre(body, ['from', 'amount', 'date', 'conversions'])) {
    const list = body.conversions;
    const ok = Array.isArray(list) && list.length >= 1 && list.length <= 25 &&
      list.every((c) => isRecord(c) && keysAre(c, ['to', 'result', 'rate']) && CODE.test(String(c.to)) && DECIMAL6.test(String(c.result)) && DECIMAL6.test(String(c.rate)));
    return ok && CODE.test(String(body.from)) && typeof body.amount === 'string' && DATE.test(String(body.date)) ? undefined : 'bad bulk conversion';
  }
  if (keysAre(body, ['status'])) return undefined; // /health, /ready
  return `a 200 body of no known shape: keys ${JSON.stringify(Object.keys(body))}`;
}

/** Every validation message of SPEC §7, in the table's order. */
export const VALIDATION_MESSAGES: string[] = [MSG.from, MSG.to, MSG.toList, MSG.toMin, MSG.toMax, MSG.amount, MSG.base, MSG.symbols, MSG.date, MSG.start, MSG.end, MSG.order];
