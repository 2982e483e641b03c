import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { RateRange } from '../../src/http/endpoints/rate-range.js';
import { loadWebFiles } from '../../src/http/routes/web-page.js';
import { openStores } from '../../src/storage/open-stores.js';
import { HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { errorBody, MSG, noDataInRange, noDataOn, rateLimited, unknownCurrency } from '../helpers/http-expect.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { FIXTURES, read, startTestServer, type TestServer, type TestServerOptions } from '../helpers/test-server.js';

/**
 * DECISIONS §17: POST /mcp driven by the SDK's own Client over its Streamable HTTP transport,
 * against a running server; every answer compared with the HTTP API's in the same run.
 */

const V1 = '/api/v1';
const TOOLS = ['convert', 'rates', 'history', 'fluctuation', 'currencies', 'sources'];

/** The production server on a socket (the SDK's client speaks HTTP), with the stand-in page of the unit loop. */
const start = (t: TestContext, options: TestServerOptions = {}) =>
  startTestServer(t, { ingest: ['hist.csv'], ...options }, { webFiles: loadWebFiles(`${FIXTURES}web-page/`) });

async function connect(t: TestContext, server: TestServer, key = server.key): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** What the key has used in the current period, this /usage request included. */
async function used(server: TestServer): Promise<number> {
  const answer = await read(await server.get(`${V1}/usage`));
  assert.equal(answer.status, 200, answer.text);
  return (answer.json as { used: number }).used;
}

interface ToolAnswer {
  isError: boolean;
  text: string;
  structured: unknown;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  assert.equal(content.length, 1, 'one content block');
  assert.equal(content[0]!.type, 'text');
  return { isError: result.isError === true, text: content[0]!.text!, structured: result.structuredContent };
}

/** A call with bad arguments, and the API's answer its tool error must hold: that of `http` (a path under V1), or `body`. */
interface BadCall {
  tool: string;
  args: Record<string, unknown>;
  http?: string;
  body?: Record<string, unknown>;
}

/** Each bad call is a tool error holding the API's error body, without structured content, counted once. */
async function assertToolErrors(server: TestServer, client: Client, calls: readonly BadCall[]): Promise<void> {
  for (const { tool, args, http, body } of calls) {
    const what = `${tool} ${JSON.stringify(args)}`;
    const answer = await counted(server, client, tool, args);
    assert.equal(answer.isError, true, `${what}: ${answer.text}`);
    assert.equal(answer.structured, undefined, `${what}: no structured content`);
    assert.equal(answer.charged, 1, `${what}: counted once`);
    if (http !== undefined) {
      const expected = await read(await server.get(V1 + http));
      assert.ok(expected.status === 400 || expected.status === 404, `${http}: ${expected.text}`);
      assert.equal(answer.text, expected.text, `${what}: the API's body for ${http}`);
    } else {
      assert.equal(answer.text, JSON.stringify(body), what);
    }
  }
}

/** Calls the tool between two /usage requests: its answer, and what the call itself was counted. */
async function counted(server: TestServer, client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer & { charged: number }> {
  const before = await used(server);
  const answer = await call(client, name, args);
  return { ...answer, charged: (await used(server)) - before - 1 };
}

test('MCP tools over POST /mcp', async (t) => {
  const server = await start(t);
  const client = await connect(t, server);

  await t.test('when a client connects and lists the tools, then it gets the six with their schemas, and neither is counted', async () => {
    const before = await used(server);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOLS,
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', `${tool.name}: input schema`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: output schema`);
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name}: read-only`);
    }
    const convert = tools.find((tool) => tool.name === 'convert')!;
    assert.deepEqual(convert.inputSchema.required, ['amount', 'from', 'to']);
    assert.deepEqual(Object.keys(convert.inputSchema.properties ?? {}), ['amount', 'from', 'to', 'date', 'source', 'precision']);
    for (const tool of tools.filter(({ name }) => ['convert', 'rates', 'history', 'fluctuation'].includes(name))) {
      const { source, precision } = tool.inputSchema.properties ?? {};
      assert.deepEqual({ ...source, description: undefined }, { type: 'string', description: undefined }, `${tool.name}: source`);
      assert.deepEqual({ ...precision, description: undefined }, { type: 'integer', minimum: 0, maximum: 12, description: undefined }, `${tool.name}: precision`);
    }
    // The history's answer is shown whole, as the HTTP body's schema, though the server checks its rates by their type alone.
    const history = tools.find((tool) => tool.name === 'history')!;
    assert.deepEqual(history.outputSchema, z.toJSONSchema(z.strictObject(RateRange.shape).describe(RateRange.description!), { io: 'output', target: 'draft-7' }));
    // A second client's initialize and notifications/initialized, then tools/list: none counted.
    await (await connect(t, server)).listTools();
    assert.equal(await used(server), before + 1, 'only the /usage request itself was counted');
  });

  /** Each good call and the HTTP request that must answer the same; `under` names the key an array goes under. */
  const GOOD: { tool: string; args: Record<string, unknown>; http: string; under?: string }[] = [
    { tool: 'convert', args: { amount: '100', from: 'usd', to: 'JPY' }, http: '/convert?from=usd&to=JPY&amount=100' },
    { tool: 'convert', args: { amount: '+.5', from: 'GBP', to: 'chf', date: '2022-08-31' }, http: '/convert?from=GBP&to=chf&amount=%2B.5&date=2022-08-31' },
    { tool: 'convert', args: { amount: 100.5, from: 'EUR', to: 'HUF' }, http: '/convert?from=EUR&to=HUF&amount=100.5' },
    { tool: 'convert', args: { amount: 1e-7, from: 'EUR', to: 'JPY' }, http: '/convert?from=EUR&to=JPY&amount=0.0000001' },
    { tool: 'convert', args: { amount: 1.5e21, from: 'USD', to: 'GBP' }, http: '/convert?from=USD&to=GBP&amount=1500000000000000000000' },
    { tool: 'convert', args: { amount: '12345.678901234567', from: 'JPY', to: 'USD', date: null }, http: '/convert?from=JPY&to=USD&amount=12345.678901234567' },
    { tool: 'rates', args: {}, http: '/rates/latest' },
    { tool: 'rates', args: { base: 'usd', symbols: ['GBP', 'jpy', 'JPY'] }, http: '/rates/latest?base=usd&symbols=GBP,jpy,JPY' },
    { tool: 'rates', args: { symbols: ['BGN'] }, http: '/rates/latest?symbols=BGN' },
    { tool: 'rates', args: { date: '2022-08-31', base: 'BGN', symbols: null }, http: '/rates/2022-08-31?base=BGN' },
    { tool: 'history', args: { start: '2025-12-01', end: '2026-04-30', base: 'GBP' }, http: '/rates/2025-12-01..2026-04-30?base=GBP' },
    { tool: 'history', args: { start: '2022-01-01', end: '', symbols: ['BGN', 'USD'] }, http: '/rates/2022-01-01..?symbols=BGN,USD' },
    { tool: 'fluctuation', args: { start: '2022-01-01', end: '2026-04-13', base: 'USD', symbols: ['JPY', 'BGN'] }, http: '/fluctuation/2022-01-01..2026-04-13?base=USD&symbols=JPY,BGN' },
    { tool: 'fluctuation', args: { start: '2026-01-01', end: '' }, http: '/fluctuation/2026-01-01..' },
    { tool: 'currencies', args: {}, http: '/currencies', under: 'currencies' },
    { tool: 'sources', args: {}, http: '/sources', under: 'sources' },
  ];

  await t.test('when each tool is called with good arguments, then it answers what the HTTP API answers, as structured content and as text, counted once', async () => {
    for (const { tool, args, http, under } of GOOD) {
      const what = `${tool} ${JSON.stringify(args)}`;
      const answer = await counted(server, client, tool, args);
      const expected = await read(await server.get(V1 + http));
      assert.equal(expected.status, 200, `${http}: ${expected.text}`);
      assert.equal(answer.isError, false, `${what}: ${answer.text}`);
      assert.equal(answer.charged, 1, `${what}: counted once`);
      const text = under === undefined ? expected.text : `{"${under}":${expected.text}}`;
      assert.equal(answer.text, text, `${what}: the text is the HTTP body`);
      assert.deepEqual(answer.structured, JSON.parse(text), `${what}: the structured content is the HTTP body`);
    }
  });

  /** Each bad call and the HTTP request refusing the same (or, where HTTP cannot say it, the body expected). */
  const BAD: BadCall[] = [
    { tool: 'convert', args: {}, http: '/convert' },
    { tool: 'convert', args: { from: 'US', to: 'JPY', amount: '1e3' }, http: '/convert?from=US&to=JPY&amount=1e3' },
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: '5', date: '2023-02-29' }, http: '/convert?from=USD&to=JPY&amount=5&date=2023-02-29' },
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: 0 }, http: '/convert?from=USD&to=JPY&amount=0' },
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: -2 }, http: '/convert?from=USD&to=JPY&amount=-2' },
    { tool: 'convert', args: { from: 'XYZ', to: 'JPY', amount: '1' }, http: '/convert?from=XYZ&to=JPY&amount=1' },
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: '1', date: '2026-04-11' }, http: '/convert?from=USD&to=JPY&amount=1&date=2026-04-11' },
    // A number past 15 significant digits may not be the one sent: it is refused, not guessed.
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: 0.12345678901234568 }, body: errorBody(400, [MSG.amount]) },
    { tool: 'convert', args: { from: 1, to: ['JPY'], amount: true }, body: errorBody(400, [MSG.from, MSG.to, MSG.amount]) },
    { tool: 'rates', args: { base: 'EURO', symbols: [] }, http: '/rates/latest?base=EURO&symbols=' },
    { tool: 'rates', args: { date: '2023-02-29', symbols: ['US'] }, http: '/rates/2023-02-29?symbols=US' },
    { tool: 'rates', args: { date: '2026-04-11' }, http: '/rates/2026-04-11' },
    { tool: 'rates', args: { symbols: ['USD', 'ZZZ'] }, http: '/rates/latest?symbols=USD,ZZZ' },
    { tool: 'rates', args: { symbols: ['USD,GBP'] }, body: errorBody(400, [MSG.symbols]) },
    { tool: 'rates', args: { symbols: [7] }, body: errorBody(400, [MSG.symbols]) },
    { tool: 'history', args: { start: '2026-05-01', end: '2026-04-01' }, http: '/rates/2026-05-01..2026-04-01' },
    { tool: 'history', args: { start: '2026-13-01', end: 'soon', base: 'EU' }, http: '/rates/2026-13-01..soon?base=EU' },
    { tool: 'history', args: {}, body: errorBody(400, [MSG.start, MSG.end]) },
    { tool: 'history', args: { start: '2030-01-01', end: '2030-02-01' }, body: errorBody(404, noDataInRange('2030-01-01', '2030-02-01')) },
    { tool: 'fluctuation', args: { start: '2026-01-01', end: '2026-04-13', base: 'XYZ' }, http: '/fluctuation/2026-01-01..2026-04-13?base=XYZ' },
    { tool: 'fluctuation', args: { start: '2030-01-01', end: '' }, http: '/fluctuation/2030-01-01..' },
  ];

  await t.test("when a tool is called with bad arguments, then it is a tool error holding the API's error body, counted once as a 400 is", async () => {
    await assertToolErrors(server, client, BAD);
    // The literals above, spot-checked against the messages themselves.
    assert.equal((await call(client, 'rates', { symbols: ['USD', 'ZZZ'] })).text, JSON.stringify(errorBody(400, unknownCurrency('ZZZ'))));
    assert.equal((await call(client, 'rates', { date: '2026-04-11' })).text, JSON.stringify(errorBody(404, noDataOn('2026-04-11'))));
  });

  await t.test('when the request has no key or an unknown one, then it is the API\'s 401, nothing counted', async () => {
    const before = await used(server);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const [authorization, message] of [
      [undefined, MSG.malformedAuth],
      ['Basic abc', MSG.malformedAuth],
      ['Bearer not-a-key', MSG.invalidKey],
    ] as const) {
      const answer = await read(
        await fetch(`${server.url}/mcp`, { method: 'POST', headers: authorization ? { ...headers, authorization } : headers, body: initialize }),
      );
      assert.equal(answer.status, 401, String(authorization));
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      assert.equal(answer.text, JSON.stringify(errorBody(401, message)));
    }
    await assert.rejects(connect(t, server, 'not-a-key'), /401/, "the SDK's client is refused too");
    assert.equal(await used(server), before + 1, 'only the /usage request itself was counted');
  });

  await t.test('when /mcp is asked with GET or DELETE, then 405 as in the SDK\'s stateless examples, with no key and not counted; OPTIONS is the preflight', async () => {
    const before = await used(server);
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const answer = await read(await fetch(`${server.url}/mcp`, { method }));
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.get('allow'), 'POST');
      assert.deepEqual(answer.json, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
    }
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization.*Content-Type.*Mcp-Protocol-Version/);
    assert.equal(await used(server), before + 1, 'only the /usage request itself was counted');
  });

  await t.test('when the body is not JSON or is too large, then the API refuses it (400, 413) before any tool runs, not counted', async () => {
    const before = await used(server);
    const post = (body: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    const broken = await read(await post('{"jsonrpc":'));
    assert.equal(broken.status, 400, broken.text);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'currencies', arguments: { padding: 'x'.repeat(70_000) } } };
    const large = await read(await post(JSON.stringify(call)));
    assert.equal(large.status, 413, large.text);
    assert.equal(await used(server), before + 1, 'only the /usage request itself was counted');
  });
});

test('when the key has used up its quota, then a tool call gets the 429 rule as a tool error and nothing is charged', async (t) => {
  const server = await start(t, { env: { QUOTA_LIMIT: '3' } });
  const client = await connect(t, server);
  const stores = await openStores(server.storeConfig);
  t.after(() => stores.close());
  const counter = async () => (await stores.quota.usage(server.keyId))?.used;

  assert.equal((await call(client, 'currencies', {})).isError, false);
  assert.equal((await call(client, 'convert', { from: 'USD', to: 'JPY', amount: '1' })).isError, false);
  assert.equal(await used(server), 3, 'two tool calls and this request: the quota is used up');

  const refused = await read(await server.get(`${V1}/currencies`));
  assert.equal(refused.status, 429);
  assert.equal(refused.text, JSON.stringify(errorBody(429, rateLimited(3, 30))));
  // The quota is checked before the arguments, as on the API: a bad call is refused the same way.
  for (const [name, args] of [
    ['currencies', {}],
    ['convert', {}],
  ] as const) {
    const answer = await call(client, name, args);
    assert.equal(answer.isError, true, name);
    assert.equal(answer.text, refused.text, `${name}: the API's 429 body`);
    assert.equal(answer.structured, undefined);
  }
  assert.equal(await counter(), 3, 'the refused calls were not counted');
  // Listing the tools still works for a key past its quota: it is not counted.
  assert.equal((await client.listTools()).tools.length, TOOLS.length);
  assert.equal(await counter(), 3);
});

const SOURCE = 'source must be one of: ecb, nbp';
const PRECISION = 'precision must be an integer from 0 to 12';

/**
 * DECISIONS §15 through the tools: `source` and `precision` as the HTTP parameters, on the ECB's
 * whole history and NBP's tables A and B with SOURCES=ecb,nbp (as test/http/source-parameter.test.ts).
 */
test('source and precision as tool arguments, and the whole history in one call', async (t) => {
  const server = await start(t, {
    ingest: [HISTORY_ZIP],
    ingestSources: [
      { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) },
      { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpB) },
    ],
    env: { SOURCES: 'ecb,nbp' },
  });
  const client = await connect(t, server);

  /** Each call, the HTTP request that must answer the same, and the one without `source` and `precision`, which must not. */
  const GOOD: { tool: string; args: Record<string, unknown>; http: string; plain: string }[] = [
    {
      tool: 'convert',
      args: { amount: '1234.567', from: 'GBP', to: 'JPY', date: '2026-03-04', source: 'nbp', precision: null },
      http: '/convert?from=GBP&to=JPY&amount=1234.567&date=2026-03-04&source=nbp',
      plain: '/convert?from=GBP&to=JPY&amount=1234.567&date=2026-03-04',
    },
    { tool: 'convert', args: { amount: 10, from: 'USD', to: 'EUR', precision: 0 }, http: '/convert?from=USD&to=EUR&amount=10&precision=0', plain: '/convert?from=USD&to=EUR&amount=10' },
    {
      tool: 'convert',
      args: { amount: '1', from: 'EUR', to: 'AFN', source: 'nbp', precision: '12' },
      http: '/convert?from=EUR&to=AFN&amount=1&source=nbp&precision=12',
      plain: '/convert?from=EUR&to=AFN&amount=1',
    },
    { tool: 'rates', args: { base: 'PLN', symbols: ['USD', 'JPY'], source: 'nbp' }, http: '/rates/latest?base=PLN&symbols=USD,JPY&source=nbp', plain: '/rates/latest?base=PLN&symbols=USD,JPY' },
    {
      tool: 'rates',
      args: { date: '2026-03-04', symbols: ['USD', 'AFN'], source: 'ecb', precision: 12 },
      http: '/rates/2026-03-04?symbols=USD,AFN&source=ecb&precision=12',
      plain: '/rates/2026-03-04?symbols=USD,AFN',
    },
    {
      tool: 'history',
      args: { start: '2026-02-27', end: '2026-03-08', base: 'USD', symbols: ['JPY'], source: 'nbp', precision: 3 },
      http: '/rates/2026-02-27..2026-03-08?base=USD&symbols=JPY&source=nbp&precision=3',
      plain: '/rates/2026-02-27..2026-03-08?base=USD&symbols=JPY',
    },
    { tool: 'history', args: { start: '2026-03-01', end: '', symbols: ['USD'], source: 'ecb', precision: 1 }, http: '/rates/2026-03-01..?symbols=USD&source=ecb&precision=1', plain: '/rates/2026-03-01..?symbols=USD' },
    {
      tool: 'fluctuation',
      args: { start: '2026-02-27', end: '2026-03-08', symbols: ['USD', 'AFN'], source: 'nbp', precision: 8 },
      http: '/fluctuation/2026-02-27..2026-03-08?symbols=USD,AFN&source=nbp&precision=8',
      plain: '/fluctuation/2026-02-27..2026-03-08?symbols=USD,AFN',
    },
    { tool: 'fluctuation', args: { start: '2026-01-01', end: '', base: 'USD', symbols: ['GBP'], source: 'ecb', precision: 2 }, http: '/fluctuation/2026-01-01..?base=USD&symbols=GBP&source=ecb&precision=2', plain: '/fluctuation/2026-01-01..?base=USD&symbols=GBP' },
  ];

  await t.test('when a tool is given source and precision, then it answers what the HTTP API answers with them, counted once', async () => {
    for (const { tool, args, http, plain } of GOOD) {
      const what = `${tool} ${JSON.stringify(args)}`;
      const answer = await counted(server, client, tool, args);
      const expected = await read(await server.get(V1 + http));
      assert.equal(expected.status, 200, `${http}: ${expected.text}`);
      assert.equal(answer.isError, false, `${what}: ${answer.text}`);
      assert.equal(answer.charged, 1, `${what}: counted once`);
      assert.equal(answer.text, expected.text, `${what}: the text is the HTTP body`);
      assert.deepEqual(answer.structured, JSON.parse(expected.text), `${what}: the structured content is the HTTP body`);
      // The arguments made a difference: without them the API answers otherwise.
      assert.notEqual((await read(await server.get(V1 + plain))).text, expected.text, `${what}: ${plain} answers otherwise`);
    }
  });

  /** Each bad call and the HTTP request refusing the same (or, where HTTP cannot say it, the body expected). */
  const BAD: BadCall[] = [
    { tool: 'rates', args: { source: 'boc' }, http: '/rates/latest?source=boc' },
    { tool: 'rates', args: { source: 'ECB' }, http: '/rates/latest?source=ECB' },
    { tool: 'rates', args: { source: '' }, http: '/rates/latest?source=' },
    { tool: 'rates', args: { source: ['ecb', 'nbp'] }, http: '/rates/latest?source=ecb&source=nbp' },
    { tool: 'rates', args: { source: 7 }, body: errorBody(400, [SOURCE]) },
    { tool: 'rates', args: { precision: 13 }, http: '/rates/latest?precision=13' },
    { tool: 'rates', args: { precision: -1 }, http: '/rates/latest?precision=-1' },
    { tool: 'rates', args: { precision: 6.5 }, http: '/rates/latest?precision=6.5' },
    { tool: 'rates', args: { precision: '06' }, http: '/rates/latest?precision=06' },
    { tool: 'rates', args: { precision: true }, body: errorBody(400, [PRECISION]) },
    { tool: 'rates', args: { precision: 1e21 }, body: errorBody(400, [PRECISION]) },
    { tool: 'rates', args: { date: '2026-13-01', base: 'E', symbols: ['1'], source: 'x', precision: 13 }, http: '/rates/2026-13-01?base=E&symbols=1&source=x&precision=13' },
    { tool: 'history', args: { start: '2026-03-05', end: '2026-03-04', source: 'x', precision: 'x' }, http: '/rates/2026-03-05..2026-03-04?source=x&precision=x' },
    { tool: 'fluctuation', args: { start: 'x', end: '', base: '1', source: 'nbpp' }, http: '/fluctuation/x..?base=1&source=nbpp' },
    { tool: 'convert', args: { from: '1', to: '2', amount: 'x', date: '2026-02-30', source: 'ecbb', precision: 99 }, http: '/convert?from=1&to=2&amount=x&date=2026-02-30&source=ecbb&precision=99' },
    // After the formats, the API's order holds: the amount's sign, the currencies, then the data.
    { tool: 'convert', args: { from: 'USD', to: 'JPY', amount: 0, source: 'nbp' }, http: '/convert?from=USD&to=JPY&amount=0&source=nbp' },
    { tool: 'rates', args: { base: 'XXX', source: 'nbp' }, http: '/rates/latest?base=XXX&source=nbp' },
    { tool: 'rates', args: { date: '2026-03-06', source: 'nbp' }, http: '/rates/2026-03-06?source=nbp' },
    { tool: 'history', args: { start: '2026-03-07', end: '2026-03-08', source: 'nbp' }, http: '/rates/2026-03-07..2026-03-08?source=nbp' },
    { tool: 'convert', args: { from: 'EUR', to: 'AFN', amount: '1', date: '2026-03-05', source: 'nbp' }, http: '/convert?from=EUR&to=AFN&amount=1&date=2026-03-05&source=nbp' },
  ];

  await t.test("when source or precision is bad, then it is a tool error holding the API's error body, in the API's order, counted once", async () => {
    await assertToolErrors(server, client, BAD);
    // The literals above, spot-checked against the messages themselves.
    const spot = async (args: Record<string, unknown>) => (await call(client, 'rates', args)).text;
    assert.equal(await spot({ source: 'boc' }), JSON.stringify(errorBody(400, [SOURCE])));
    assert.equal(await spot({ precision: 6.5 }), JSON.stringify(errorBody(400, [PRECISION])));
    assert.equal(await spot({ date: '2026-13-01', base: 'E', symbols: ['1'], source: 'x', precision: 13 }), JSON.stringify(errorBody(400, [MSG.date, MSG.base, MSG.symbols, SOURCE, PRECISION])));
    assert.equal(await spot({ date: '2026-03-06', source: 'nbp' }), JSON.stringify(errorBody(404, noDataOn('2026-03-06'))));
  });

  await t.test('when the whole history is asked in one call, then its text is the HTTP answer byte for byte, counted once', async () => {
    const answer = await counted(server, client, 'history', { start: '1999-01-04', end: '' });
    const expected = await read(await server.get(`${V1}/rates/1999-01-04..`));
    assert.equal(expected.status, 200);
    assert.ok(expected.text.length > 3_000_000, `the whole history is large (${expected.text.length} bytes)`);
    assert.equal(answer.isError, false, answer.text.slice(0, 200));
    assert.equal(answer.charged, 1);
    assert.ok(answer.text === expected.text, 'the text is the HTTP body');
    assert.deepEqual(answer.structured, JSON.parse(expected.text), 'the structured content is the HTTP body');
  });
});
