import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { WEB_ROOT } from '../../src/http/routes/web-page.js';
import { parseHistoryCsv, type History } from '../helpers/ecb-history-csv.js';
import { JSON_TYPE } from '../helpers/http-expect.js';
import { oneConnectionAgent, rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { FIXTURES, startTestServer } from '../helpers/test-server.js';
import { assertProperty, fcParams } from './fc-settings.js';
import {
  DEFAULT_TRACKED,
  expectedAnswer,
  routeOf,
  shapeProblem,
  VALIDATION_MESSAGES,
  type Expected,
  type ModelRequest,
  type ModelWorld,
} from './request-model.js';

/**
 * Property-based tests of the HTTP layer: requests a hostile or careless client could
 * send — arbitrary and repeated parameters, unicode, every way of percent-encoding, huge values,
 * odd paths, methods and headers — against the production server. Every answer must match the
 * executable model of SPEC/DECISIONS in request-model.ts exactly (status, body bytes, and a 200's
 * numbers recomputed with the BigInt oracle), and must never be a 5xx.
 *
 * Reproducible: a fixed seed and FC_RUNS-scaled run counts (fc-settings.ts). Longer:
 * `FC_RUNS=10000 npm test`; another seed: `FC_SEED=7 npm test`.
 */

const DATA_FILES = ['hist.csv', 'legacy.csv'];

function loadHistory(): History {
  const history: History = new Map();
  for (const file of DATA_FILES) {
    for (const [date, day] of parseHistoryCsv(readFileSync(FIXTURES + file, 'utf8'))) history.set(date, { ...history.get(date), ...day });
  }
  return history;
}

// ---------------------------------------------------------------------------------------------
// Generators

const WITH_DATA = ['EUR', 'USD', 'JPY', 'BGN', 'GBP', 'HUF', 'CHF', 'ISK'];
const TRACKED_WITHOUT_DATA = ['CZK', 'PLN', 'ZAR', 'TRY', 'KRW'];
const UNTRACKED = ['HRK', 'RUB', 'XYZ', 'TRL', 'XAU'];

const mixedCase = (s: string) =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((flags) => [...s].map((c, i) => (flags[i] ? c.toLowerCase() : c)).join(''));

const goodCode = fc
  .oneof(
    { weight: 6, arbitrary: fc.constantFrom(...WITH_DATA) },
    { weight: 2, arbitrary: fc.constantFrom(...TRACKED_WITHOUT_DATA) },
    { weight: 2, arbitrary: fc.constantFrom(...UNTRACKED) },
  )
  .chain((code) => fc.oneof({ weight: 3, arbitrary: fc.constant(code) }, { weight: 1, arbitrary: mixedCase(code) }));

const badCode = fc.oneof(
  fc.constantFrom('', 'US', 'USDD', 'U5D', 'US ', ' USD', 'ÜSD', 'usd\u0000', 'ＵＳＤ', 'ıso', 'ßUS', 'E U', 'EUR,', '123', 'U-D', 'eur;', 'İSD', 'USD\u200b'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

const codeValue = fc.oneof({ weight: 5, arbitrary: goodCode }, { weight: 2, arbitrary: badCode });

const listValue = fc.oneof(
  { weight: 5, arbitrary: fc.array(goodCode, { minLength: 1, maxLength: 8 }).map((codes) => codes.join(',')) },
  { weight: 1, arbitrary: fc.array(goodCode, { minLength: 20, maxLength: 30 }).map((codes) => codes.join(',')) },
  { weight: 2, arbitrary: fc.array(codeValue, { minLength: 0, maxLength: 30 }).map((codes) => codes.join(',')) },
  {
    weight: 1,
    arbitrary: fc
      .array(goodCode, { minLength: 1, maxLength: 5 })
      .chain((codes) => fc.constantFrom(codes.join(', '), codes.join(',,'), `${codes.join(',')},`, `,${codes.join(',')}`, codes.join(';'), codes.join(' '))),
  },
);

const hugeDigits = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 200, max: 2500 }), fc.integer({ min: 1, max: 97 }), fc.boolean())
  .map(([lead, length, step, fraction]) => {
    const digits = Array.from({ length }, (_, i) => String((i * step) % 10)).join('');
    return fraction ? `${lead}${digits.slice(0, length >> 1)}.${digits.slice(length >> 1)}` : `${lead}${digits}`;
  });

const amountValue = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^\+?(\d{1,12}(\.\d{1,12})?|\.\d{1,12})$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[+-]?(0{1,5}(\.0{1,5})?|\.0{1,4})$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^-\d{1,8}(\.\d{1,8})?$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('5.', '1e3', ' 5', '5 ', '0x10', '1,000', 'NaN', 'Infinity', '-Infinity', '.', '', '+', '-', '1.2.3', '١٢', '１２', '1_000', '--1', '+-1', '∞', '0.1e1', '٫5'),
  },
  { weight: 1, arbitrary: hugeDigits },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

const anyValue = fc.oneof(codeValue, amountValue, listValue, fc.string({ unit: 'grapheme', maxLength: 10 }));

const PARAMS_OF = {
  latest: ['base', 'symbols'],
  date: ['base', 'symbols'],
  range: ['base', 'symbols'],
  fluctuation: ['base', 'symbols'],
  convert: ['from', 'to', 'amount', 'date'],
  bulk: ['from', 'amount', 'to', 'date'],
  currencies: [] as string[],
} as const;

const STRANGE_NAMES = ['FROM', 'Base', 'foo', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'amount ', 'to[]', 'symbols[0]', 'a.b', '', 'ämount', 'from\u0000'];

const nameFor = (route: keyof typeof PARAMS_OF) =>
  fc.oneof(
    { weight: PARAMS_OF[route].length === 0 ? 0 : 10, arbitrary: fc.constantFrom(...(PARAMS_OF[route].length ? PARAMS_OF[route] : ['x'])) },
    { weight: 2, arbitrary: fc.constantFrom('from', 'to', 'amount', 'base', 'symbols', 'date') },
    { weight: 1, arbitrary: fc.constantFrom(...STRANGE_NAMES) },
  );

const valueFor = (route: keyof typeof PARAMS_OF, name: string) => {
  if (name === 'amount') return amountValue;
  if (name === 'symbols' || (name === 'to' && route === 'bulk')) return listValue;
  if (name === 'from' || name === 'to' || name === 'base') return codeValue;
  if (name === 'date') return dateValue;
  return anyValue;
};

/** The ways a client writes a query component. The model decodes whatever comes out. */
type Encoding = 'uri' | 'every-byte' | 'every-byte-lower' | 'plus' | 'minimal' | 'broken';
const ENCODINGS: Encoding[] = ['uri', 'uri', 'uri', 'every-byte', 'every-byte-lower', 'plus', 'minimal', 'minimal', 'broken'];
const BROKEN_ESCAPES = ['%', '%G1', '%2', '%E2%82', '%C0%AF', '%ED%A0%80', '%FF', '%%', '%u0041'];

function encodeBytes(s: string, lower: boolean): string {
  return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).map((e) => (lower ? e : e.toUpperCase())).join('');
}

function encodeComponent(s: string, encoding: Encoding, position: number): string {
  // Lone surrogates cannot be sent; a client's encoder would write U+FFFD for them.
  const text = Buffer.from(s, 'utf8').toString('utf8');
  switch (encoding) {
    case 'uri':
      return encodeURIComponent(text);
    case 'every-byte':
      return encodeBytes(text, false);
    case 'every-byte-lower':
      return encodeBytes(text, true);
    case 'plus':
      return encodeURIComponent(text).replace(/%20/g, '+');
    case 'minimal':
      return [...text].map((ch) => (/^[A-Za-z0-9\-._~!$'()*,;:@/?]$/.test(ch) ? ch : encodeURIComponent(ch))).join('');
    case 'broken': {
      const encoded = encodeURIComponent(text);
      const at = position % (encoded.length + 1);
      return encoded.slice(0, at) + BROKEN_ESCAPES[position % BROKEN_ESCAPES.length] + encoded.slice(at);
    }
  }
}

const pairFor = (route: keyof typeof PARAMS_OF) =>
  nameFor(route).chain((name) =>
    fc
      .record({
        value: valueFor(route, name),
        nameEncoding: fc.constantFrom<Encoding>('uri', 'uri', 'uri', 'every-byte', 'broken'),
        valueEncoding: fc.constantFrom(...ENCODINGS),
        position: fc.nat(),
        shape: fc.constantFrom('name=value', 'name=value', 'name=value', 'name=value', 'name', 'name=', '&name=value&'),
      })
      .map(({ value, nameEncoding, valueEncoding, position, shape }) => {
        const n = encodeComponent(name, nameEncoding, position);
        const v = encodeComponent(value, valueEncoding, position >> 3);
        if (shape === 'name') return n;
        if (shape === 'name=') return `${n}=`;
        if (shape === '&name=value&') return `&${n}=${v}&`;
        return `${n}=${v}`;
      }),
  );

/** A path segment that percent-decodes to `s`: unreserved characters sometimes escaped, all others always. */
const pathSegment = (s: string) =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((flags) =>
    [...s].map((ch, i) => (/^[A-Za-z0-9\-._~]$/.test(ch) && !flags[i] ? ch : encodeBytes(ch, i % 2 === 0))).join(''),
  );

const DATES_WITH_DATA = ['2026-04-13', '2026-04-10', '2025-12-31', '2022-08-31', '2022-03-02', '2022-03-01', '2008-12-10', '2008-12-09'];
const dateValue = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...DATES_WITH_DATA) },
  { weight: 2, arbitrary: fc.constantFrom('2026-04-11', '2030-01-01', '2024-02-29', '0001-01-01', '9999-12-31', '2000-02-29', '1999-01-04') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('2023-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-4-13', '20260413', '0000-01-01', '1900-02-29',
      '2026-04-13T00:00', '+2026-04-13', '2026-04-1a', 'latest', 'LATEST', '', '２０２６-04-13', '2026-04-13 ', '2026–04–13'),
  },
  { weight: 1, arbitrary: fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789-abcXYZ._~ é'), maxLength: 24 }) },
);

/** `{start}..{end}` with each side written like a date segment, the dots sometimes percent-encoded. */
const rangeSegment = fc
  .tuple(dateValue, fc.oneof({ weight: 3, arbitrary: dateValue }, { weight: 1, arbitrary: fc.constant('') }), fc.constantFrom('..', '..', '..', '%2E%2E', '.%2e'))
  .chain(([start, end, dots]) => fc.tuple(pathSegment(start), pathSegment(end)).map(([a, b]) => `${a}${dots}${b}`));

const routePath = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ route: 'latest' as const, path: '/api/v1/rates/latest' }) },
  { weight: 3, arbitrary: dateValue.chain(pathSegment).map((segment) => ({ route: 'date' as const, path: `/api/v1/rates/${segment}` })) },
  { weight: 3, arbitrary: rangeSegment.map((segment) => ({ route: 'range' as const, path: `/api/v1/rates/${segment}` })) },
  { weight: 2, arbitrary: rangeSegment.map((segment) => ({ route: 'fluctuation' as const, path: `/api/v1/fluctuation/${segment}` })) },
  { weight: 4, arbitrary: fc.constant({ route: 'convert' as const, path: '/api/v1/convert' }) },
  { weight: 4, arbitrary: fc.constant({ route: 'bulk' as const, path: '/api/v1/convert/bulk' }) },
  { weight: 1, arbitrary: fc.constant({ route: 'currencies' as const, path: '/api/v1/currencies' }) },
);

const KEY_PLACEHOLDER = '{key}';
const authorization: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<string[]>([`Bearer ${KEY_PLACEHOLDER}`]) },
  { weight: 3, arbitrary: fc.constantFrom<string[]>([`bearer ${KEY_PLACEHOLDER}`], [`BEARER   ${KEY_PLACEHOLDER}`], [`Bearer ${KEY_PLACEHOLDER}  `], [`  Bearer ${KEY_PLACEHOLDER}`]) },
  { weight: 1, arbitrary: fc.constant<string[]>([]) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string[]>(['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer '], ['Bearer a b'], [`Bearer\t${KEY_PLACEHOLDER}`], [`Token ${KEY_PLACEHOLDER}`], [''],
      [`${KEY_PLACEHOLDER}`], [`Bearer ${KEY_PLACEHOLDER} extra`], [`Bearer ${KEY_PLACEHOLDER}\u00a0x`]),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string[]>(['Bearer cr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], [`Bearer ${KEY_PLACEHOLDER}x`], ['Bearer é'], [`Bearer x${KEY_PLACEHOLDER}`],
      ['Bearer cr_'], [`Bearer ${KEY_PLACEHOLDER}`, 'Bearer wrong'], ['Bearer wrong', `Bearer ${KEY_PLACEHOLDER}`]),
  },
);

const extraHeaders = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ['origin', 'https://evil.example'], ['origin', 'null'], ['accept', 'text/html'], ['accept-encoding', 'gzip, deflate, br'],
      ['x-forwarded-for', '10.0.0.1, 203.0.113.9'], ['user-agent', 'Mozilla/5.0 ÿ'], ['if-none-match', '*'], ['if-none-match', ' * '],
      ['if-none-match', 'W/"abc"'], ['if-none-match', '"nope", W/"x"'], ['cookie', `a=${'b'.repeat(4000)}`], ['connection', 'keep-alive'],
      ['access-control-request-method', 'GET'], ['content-type', 'application/json'], ['x-http-method-override', 'DELETE'],
    ),
    fc.tuple(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~\u00a0é\u00ff'), maxLength: 60 })),
  ),
  { maxLength: 4 },
);

/** Mostly well-formed: each parameter of the route once, values that should succeed, tidy encodings. */
const positiveAmount = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^\+?([1-9]\d{0,9}(\.\d{1,9})?|0?\.\d{0,5}[1-9])$/) },
  { weight: 1, arbitrary: hugeDigits },
);
const tidyEncoding = fc.constantFrom<Encoding>('uri', 'uri', 'every-byte', 'every-byte-lower', 'plus', 'minimal');
const dataCode = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...WITH_DATA) }, { weight: 1, arbitrary: goodCode }).chain((code) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(code) }, { weight: 1, arbitrary: mixedCase(code) }),
);
const tidyPairs = (route: keyof typeof PARAMS_OF) => {
  const values: Record<string, fc.Arbitrary<string | undefined>> = {
    from: dataCode,
    to: route === 'bulk' ? fc.array(dataCode, { minLength: 1, maxLength: 25 }).map((codes) => codes.join(',')) : dataCode,
    amount: positiveAmount,
    base: fc.option(dataCode, { nil: undefined }),
    symbols: fc.option(fc.array(dataCode, { minLength: 1, maxLength: 8 }).map((codes) => codes.join(',')), { nil: undefined }),
    date: fc.option(fc.constantFrom(...DATES_WITH_DATA), { nil: undefined, freq: 2 }),
  };
  const names = PARAMS_OF[route];
  return fc
    .tuple(
      fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), values[name]!, tidyEncoding))),
      fc.array(fc.tuple(fc.constantFrom('foo', 'page', 'callback', '_', 'date'), anyValue, tidyEncoding), { maxLength: 2 }),
      fc.nat(),
    )
    .map(([params, extra, seed]) => {
      const pairs = [...params, ...extra]
        .filter((p): p is [string, string, Encoding] => p[1] !== undefined)
        .map(([name, value, encoding]) => `${encodeComponent(name, 'uri', 0)}=${encodeComponent(value, encoding, 0)}`);
      // A deterministic shuffle: the order of parameters must not matter.
      return pairs.map((pair, i) => ({ pair, key: (i * 7919 + seed) % 1000 })).sort((a, b) => a.key - b.key).map((p) => p.pair);
    });
};

const apiRequest = routePath.chain(({ route, path }) =>
  fc.record({
    route: fc.constant(route),
    path: fc.constant(path),
    pairs: fc.oneof({ weight: 2, arbitrary: tidyPairs(route) }, { weight: 1, arbitrary: fc.array(pairFor(route), { maxLength: 6 }) }),
    querySeparator: fc.constantFrom('?', '?', '?', '?', '?', '', '??'),
    method: fc.oneof(
      { weight: 40, arbitrary: fc.constant('GET') },
      { weight: 4, arbitrary: fc.constant('HEAD') },
      { weight: 1, arbitrary: fc.constantFrom('OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH') },
    ),
    authorization,
    headers: extraHeaders,
    body: fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }) }),
  }),
);

// ---------------------------------------------------------------------------------------------
// Checks common to every answer

function assertCommonHeaders(answer: RawAnswer, what: string): void {
  assert.ok(answer.status >= 200 && answer.status < 500, `${what}: status ${answer.status} (never a 5xx): ${answer.text}`);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', `${what}: X-Content-Type-Options`);
  assert.equal(answer.headers['x-powered-by'], undefined, `${what}: no X-Powered-By`);
  assert.equal(answer.headers['access-control-allow-credentials'], undefined, `${what}: CORS never allows credentials`);
  assert.equal(answer.headers['access-control-allow-origin'], '*', `${what}: CORS is open and never reflects the Origin`);
}

function assertShape(answer: RawAnswer, method: string, what: string): void {
  if (method === 'HEAD' || answer.status === 204 || answer.status === 304) {
    assert.equal(answer.text, '', `${what}: no body`);
    return;
  }
  assert.equal(answer.headers['content-type'], JSON_TYPE, `${what}: content type`);
  assert.notEqual(answer.json, undefined, `${what}: the body is JSON: ${answer.text.slice(0, 300)}`);
  const problem = shapeProblem(answer.status, answer.json);
  assert.equal(problem, undefined, `${what}: ${problem}: ${answer.text.slice(0, 300)}`);
}

function assertAsModelled(answer: RawAnswer, expected: Expected, method: string, tracked: string[], what: string): void {
  assert.equal(answer.status, expected.status, `${what}: status; body ${answer.text.slice(0, 500)}`);
  if (method === 'HEAD' || expected.status === 204 || expected.status === 304) return;
  if ('body' in expected) {
    assert.equal(answer.text, JSON.stringify(expected.body), `${what}: the 200 body (oracle)`);
  } else if ('message' in expected) {
    const body = { statusCode: expected.status, message: expected.message, error: STATUS_CODES[expected.status] };
    assert.equal(answer.text, JSON.stringify(body), `${what}: the error body`);
  } else if ('currencies' in expected) {
    assert.deepEqual((answer.json as { code: string }[]).map((c) => c.code), [...tracked].sort(), `${what}: the currency list`);
  }
}

// ---------------------------------------------------------------------------------------------

test('when arbitrary requests reach the seven endpoints, then every answer is exactly what SPEC and DECISIONS prescribe, every 200 equals the BigInt oracle, and each request past authentication is counted once', async (t) => {
  const server = await startTestServer(t, { ingest: DATA_FILES, env: { QUOTA_LIMIT: '1000000000' } });
  const { hostname } = new URL(server.url);
  const port = Number(new URL(server.url).port);
  const agent = oneConnectionAgent();
  t.after(() => agent.destroy());
  const world: ModelWorld = { key: server.key, history: loadHistory(), tracked: new Set(DEFAULT_TRACKED) };
  let lastRemaining: number | undefined;
  const statuses = new Map<number, number>();

  await assertProperty(
    fc.asyncProperty(apiRequest, async (generated) => {
      const query = generated.pairs.join('&');
      const target = generated.path + (generated.querySeparator === '' ? '' : generated.querySeparator + query);
      const auth = generated.authorization.map((value) => value.replace(KEY_PLACEHOLDER, server.key));
      const headers: [string, string][] = [...auth.map((value): [string, string] => ['authorization', value]), ...generated.headers];
      // Repeated list headers reach the server joined with ", " (RFC 9110 §5.3).
      const inm = generated.headers.filter(([name]) => name === 'if-none-match').map(([, value]) => value.trim());
      const ifNoneMatch = inm.length === 0 ? undefined : inm.join(', ');
      const request: ModelRequest = { method: generated.method, target, authorization: auth, ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }) };
      const expected = expectedAnswer(request, world);
      const answer = await rawRequest(hostname, port, {
        method: generated.method,
        target,
        headers,
        agent,
        ...(generated.body === undefined ? {} : { body: generated.body }),
      });
      const what = `${generated.method} ${target.length > 300 ? `${target.slice(0, 300)}…` : target}`;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      assertCommonHeaders(answer, what);
      assertShape(answer, generated.method, what);
      assertAsModelled(answer, expected, generated.method, DEFAULT_TRACKED, what);

      // Counted: every request that passed authentication (DECISIONS §4), exactly once.
      const counted = ![204, 401, 405, 414].includes(expected.status) && routeOf(target.split('?')[0]!) !== undefined;
      const remaining = answer.headers['x-ratelimit-remaining'];
      if (counted) {
        assert.match(String(remaining), /^\d+$/, `${what}: X-RateLimit-Remaining`);
        if (lastRemaining !== undefined) assert.equal(Number(remaining), lastRemaining - 1, `${what}: counted once`);
        lastRemaining = Number(remaining);
      } else {
        assert.equal(remaining, undefined, `${what}: an answer before the quota check carries no quota headers`);
      }
    }),
    fcParams(2),
  );
  t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
});

// ---------------------------------------------------------------------------------------------
// Anything at all: paths, methods and headers no model covers. Never a 5xx or a dropped
// connection; always the spec's shapes.

const PATH_CHARS = [
  ...'abcxyzAZ0189-._~!$&\'()*+,;=:@/%?#[]{}|\\^`"<>'.split(''),
  '%2F', '%2f', '%00', '%zz', '%', '%E0%A4%A', '%C3%A9', '%FF', '..', '.', '//', 'api', 'v1', 'rates', 'convert', 'latest', 'bulk',
  '\u00e9', '\u00ff', '\u0080', '\u00a0',
];

const oddTarget = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('/', '/api/v1/', '/api/v1/rates/', '/api/v1/convert', '//', '/api/v1/convert/bulk/'), fc.array(fc.constantFrom(...PATH_CHARS), { maxLength: 30 })).map(([prefix, parts]) => prefix + parts.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('*', 'http://example.com/api/v1/currencies', 'http://[::1]/', '/api/v1/rates/2026-04-13/', '/api/v1/rates/2026-04-13/extra', '/health?x', '/ready#') },
);

const WEB_PAGE = readFileSync(join(WEB_ROOT, 'index.html'), 'utf8');

/** A GET of `/` (RFC 9112 §3.2.2: also as `http://host/`), whatever its query, is the web page in HTML; no other answer is HTML. */
function isWebPage(answer: RawAnswer, method: string, target: string, what: string): boolean {
  if (answer.headers['content-type'] !== 'text/html; charset=utf-8') return false;
  assert.equal(method, 'GET', `${what}: only a GET gets the page`);
  assert.equal(target.replace(/^http:\/\/[^/]*/, '').split('?')[0], '/', `${what}: only / is the page`);
  assert.equal(answer.status, 200, `${what}: status`);
  assert.equal(answer.text, WEB_PAGE, `${what}: the built page`);
  return true;
}

test('when arbitrary paths, methods and headers arrive, then no answer is a 5xx or a dropped connection, and every body has one of the spec\'s shapes', async (t) => {
  const server = await startTestServer(t, { ingest: DATA_FILES, env: { QUOTA_LIMIT: '1000000000' } });
  const { hostname } = new URL(server.url);
  const port = Number(new URL(server.url).port);

  await assertProperty(
    fc.asyncProperty(
      oddTarget,
      fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'TRACE', 'PROPFIND', 'get', 'M-SEARCH', 'QUERY', 'SEARCH', 'PURGE'),
      fc.boolean(),
      extraHeaders,
      async (target, method, withKey, headers) => {
        const all: [string, string][] = withKey ? [['authorization', `Bearer ${server.key}`], ...headers] : headers;
        // A fresh connection each time: some of these end it on purpose.
        const answer = await rawRequest(hostname, port, { method, target, headers: all, timeoutMs: 5000 });
        const what = `${method} ${target}`;
        assertCommonHeaders(answer, what);
        if (isWebPage(answer, method, target, what)) return;
        assertShape(answer, method, what);
        const message = (answer.json as { message?: unknown } | undefined)?.message;
        if (Array.isArray(message)) {
          // Which route was hit is not modelled here: every message is one of SPEC §7's, each once.
          for (const m of message) assert.ok(VALIDATION_MESSAGES.includes(m as string), `${what}: unknown validation message ${String(m)}`);
          assert.equal(new Set(message).size, message.length, `${what}: a message listed twice`);
        }
      },
    ),
    fcParams(1),
  );
});
