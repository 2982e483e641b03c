import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { runIngestion } from '../../src/ingest/run-ingestion.js';
import { ecb } from '../../src/ingest/sources/ecb.js';
import { KeyCache } from '../../src/live/key-cache.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import type { KeyStore } from '../../src/storage/ports.js';
import { freshPgSchema, freshRedisPrefix, postgresUrl, redisUrl, requireBackend, withSearchPath } from '../helpers/backends.js';
import { describeRun, REPO_ROOT, runCli, serviceEnv } from '../helpers/cli.js';
import { rawRequest, socketExchange, type RawAnswer } from '../helpers/raw-http.js';
import { pollUntil, spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { FIXTURES, tempDir } from '../helpers/test-server.js';

/**
 * Security: keys are only ever compared through their hash; no key, stack trace or SQL
 * reaches a response or a log line, even at LOG_LEVEL=trace and through a backend failure; no
 * X-Powered-By, X-Content-Type-Options: nosniff everywhere; CORS never allows credentials nor
 * reflects the Origin. (The dependency audit runs in .ci/run.)
 */

// ---------------------------------------------------------------------------------------------
// Keys through their hash

test('when a key is authenticated, then the key cache and the key store only ever see its SHA-256, and a hash presented as a key is refused', async () => {
  const plain = generateApiKey();
  const seen: string[] = [];
  const store: KeyStore = {
    create: async () => {
      throw new Error('unused');
    },
    list: async () => [],
    revoke: async () => false,
    setQuota: async () => false,
    findActive: async (hash) => {
      seen.push(hash);
      return hash === hashApiKey(plain) ? 7 : undefined;
    },
    activeKeys: async () => new Map([[hashApiKey(plain), { id: 7, quota: null }]]),
    version: async () => 1,
  };
  // Keys are refused from memory (DECISIONS §12): before its first refresh the cache knows none and asks nothing.
  const cold = new KeyCache(store);
  assert.equal(await cold.authenticate(plain), undefined, 'a key not yet loaded is refused without a lookup');
  assert.deepEqual(seen, [], 'the store was asked nothing about a presented key');
  const warm = new KeyCache(store);
  await warm.refresh();
  assert.equal(await warm.authenticate(plain), 7, 'a cached key is found by its hash');
  assert.equal(await warm.authenticate(hashApiKey(plain)), undefined, 'the stored hash itself is not a key');
  assert.equal(await warm.authenticate(plain.slice(0, -1)), undefined);
  assert.deepEqual(seen, [], 'no presented key, nor its hash, reached the store');
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('when the sources are read, then the presented token goes straight to KeyCache.authenticate, which hashes it first, and no code compares a token or key with == or ===', () => {
  const src = join(REPO_ROOT, 'src');
  const files = sourceFiles(src);
  const comparisons = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ file, line: i + 1, text: line }))
      // A comparison with undefined or null is a presence check, not a comparison of secrets.
      .filter(({ text }) => {
        const code = text.replace(/\s*[!=]==?\s*(undefined|null)\b|\b(undefined|null)\s*[!=]==?\s*/g, ' ');
        return /\b(token|apiKey|plainKey|bearer)\b\s*[!=]==?|[!=]==?\s*\b(token|apiKey|plainKey|bearer)\b/i.test(code);
      }),
  );
  assert.deepEqual(comparisons, [], 'a secret compared byte by byte (timing leak)');
  const gate = readFileSync(join(src, 'http', 'hooks', 'authenticate.ts'), 'utf8');
  assert.match(gate, /\.authenticate\(token\)/, 'the auth hook hands the token to the key cache');
  const cache = readFileSync(join(src, 'live', 'key-cache.ts'), 'utf8');
  const authenticate = cache.slice(cache.indexOf('async authenticate('));
  assert.match(authenticate, /^async authenticate\(\w+: string\)[^{]*\{\s*const hash = hashApiKey\(\w+\);/, 'KeyCache.authenticate hashes before anything else');
});

test('when a key is created, then the database file holds its SHA-256 and never the key', async (t) => {
  const path = join(tempDir(t), 'rates.db');
  const created = await runCli(['keys', 'create', '--name', 'secret'], serviceEnv(path));
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop()!;
  const listed = await runCli(['keys', 'list'], serviceEnv(path));
  assert.ok(!listed.stdout.includes(key) && !listed.stderr.includes(key), 'keys list never shows a key');
  const bytes = Buffer.concat([readFileSync(path), ...['-wal', '-shm'].map((s) => readFileSync(path + s, { flag: 'a+' }))]);
  assert.equal(bytes.includes(key), false, 'the key is not in the database');
  assert.equal(bytes.includes(hashApiKey(key)), true, 'its hash is');
});

// ---------------------------------------------------------------------------------------------
// Nothing leaks: a full run at LOG_LEVEL=trace, its logs and every answer searched

const STACK_FRAME = /(\\n|\n)\s*at \S+|\bat (async )?[\w$.<>]+ \((file|node):|\.js:\d+:\d+/;
const SQL = /\b(SELECT|INSERT|UPDATE|DELETE FROM|CREATE TABLE|ON CONFLICT|RETURNING)\b/;

interface Collected {
  answers: { what: string; answer: RawAnswer }[];
}

function assertHeaders(what: string, answer: RawAnswer): void {
  assert.equal(answer.headers['x-powered-by'], undefined, `${what}: no X-Powered-By`);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', `${what}: X-Content-Type-Options: nosniff`);
  assert.equal(answer.headers['access-control-allow-credentials'], undefined, `${what}: CORS never allows credentials`);
  assert.equal(answer.headers['access-control-allow-origin'], '*', `${what}: CORS is * and never reflects the Origin`);
  assert.equal(answer.headers.server, undefined, `${what}: no Server header naming the software`);
}

/** Requests of every kind: 200, 304, 400, 401, 404, 405, 414, 431, malformed HTTP, preflights, HEAD. */
async function mixedWorkload(server: ServerProcess, key: string, wrongKeys: string[], collected: Collected): Promise<void> {
  const send = async (what: string, target: string, options: { method?: string; headers?: [string, string][] } = {}) => {
    const answer = await rawRequest('127.0.0.1', server.port, { target, ...options, headers: options.headers ?? [['authorization', `Bearer ${key}`], ['origin', 'https://evil.example']] });
    collected.answers.push({ what, answer });
    assertHeaders(what, answer);
    return answer;
  };
  const etag = (await send('latest', '/api/v1/rates/latest')).headers.etag!;
  await send('304', '/api/v1/rates/latest', { headers: [['authorization', `Bearer ${key}`], ['if-none-match', etag]] });
  for (const target of [
    '/api/v1/convert?from=USD&to=JPY&amount=12.5', '/api/v1/convert/bulk?from=GBP&amount=3&to=USD,CHF', '/api/v1/currencies',
    '/api/v1/rates/2026-04-13?base=USD', '/api/v1/rates/2026-04-11', '/api/v1/convert?from=US&to=JPY&amount=x', '/api/v1/convert?from=USD&to=JPY&amount=0',
    '/api/v1/convert?from=XYZ&to=JPY&amount=1', "/api/v1/rates/latest?base=EUR'%20OR%201=1--", '/api/v1/rates/%zz', '/nowhere', `/api/v1/${'x'.repeat(9000)}`,
  ]) {
    await send(target.slice(0, 60), target);
  }
  await send('HEAD', '/api/v1/rates/latest', { method: 'HEAD' });
  await send('405', '/api/v1/convert', { method: 'DELETE' });
  await send('preflight', '/api/v1/convert', {
    method: 'OPTIONS',
    headers: [['origin', 'https://evil.example'], ['access-control-request-method', 'GET'], ['access-control-request-headers', 'authorization, cookie']],
  });
  await send('no key', '/api/v1/rates/latest', { headers: [['origin', 'https://evil.example']] });
  for (const wrong of wrongKeys) {
    await send('a wrong key', '/api/v1/rates/latest', { headers: [['authorization', `Bearer ${wrong}`]] });
    await send('a wrong scheme', '/api/v1/rates/latest', { headers: [['authorization', `Basic ${wrong}`]] });
  }
  await send('a 40 KB header', '/api/v1/currencies', { headers: [['authorization', `Bearer ${key}`], ['x-big', 'v'.repeat(40_000)]] });
  await send('/health', '/health');
  const garbage = await socketExchange(server.port, [`GARBAGE ${key}\r\n\r\n`], 2000);
  assert.ok(!garbage.received.includes(key), 'a malformed request does not echo the key');
}

/** Every leak found, not only the first: the report says where each comes from. */
function assertNothingLeaks(texts: { what: string; text: string }[], secrets: string[]): void {
  const leaks: string[] = [];
  const around = (text: string, index: number) => text.slice(Math.max(0, index - 250), index + 150);
  for (const { what, text } of texts) {
    for (const secret of secrets) if (text.includes(secret)) leaks.push(`${what} holds a key: ${around(text, text.indexOf(secret))}`);
    const frame = STACK_FRAME.exec(text);
    if (frame) leaks.push(`${what} holds a stack trace: ${around(text, frame.index)}`);
    const sql = SQL.exec(text);
    if (sql) leaks.push(`${what} holds SQL ("${sql[0]}"): ${around(text, sql.index)}`);
  }
  assert.deepEqual(leaks, [], `${leaks.length} leak(s):\n${leaks.join('\n')}`);
}

async function prepareStore(config: StoreConfig): Promise<string> {
  const stores = await openStores(config);
  try {
    const key = generateApiKey();
    await stores.keys.create('leak-test', hashApiKey(key), new Date());
    await runIngestion(stores.rates, ecb, { file: FIXTURES + 'hist.csv' });
    return key;
  } finally {
    await stores.close();
  }
}

async function runAndSearch(
  t: TestContext,
  env: NodeJS.ProcessEnv,
  key: string,
  backendFailure?: { proxies: TcpProxy[] },
): Promise<void> {
  const server = await spawnServer(t, { ...env, LOG_LEVEL: 'trace', REFRESH_INTERVAL_MS: '200' });
  const wrongKeys = [generateApiKey(), `${key.slice(0, -2)}xy`];
  const collected: Collected = { answers: [] };
  await mixedWorkload(server, key, wrongKeys, collected);

  if (backendFailure) {
    for (const proxy of backendFailure.proxies) await proxy.cut();
    const down = await rawRequest('127.0.0.1', server.port, { target: '/api/v1/convert?from=USD&to=JPY&amount=1', headers: [['authorization', `Bearer ${key}`]] });
    collected.answers.push({ what: 'during the outage', answer: down });
    assert.equal(down.status, 503, down.text);
    assertHeaders('503', down);
    const ready = await rawRequest('127.0.0.1', server.port, { target: '/ready' });
    collected.answers.push({ what: '/ready during the outage', answer: ready });
    assert.equal(ready.status, 503);
    // A new key cannot be checked while the database is away: still no leak.
    collected.answers.push({ what: 'unknown key in the outage', answer: await rawRequest('127.0.0.1', server.port, { target: '/api/v1/currencies', headers: [['authorization', `Bearer ${wrongKeys[0]}`]] }) });
    await sleep(700); // a few failed background refreshes
    for (const proxy of backendFailure.proxies) await proxy.restore();
    await pollUntil(
      async () => ((await rawRequest('127.0.0.1', server.port, { target: '/api/v1/currencies', headers: [['authorization', `Bearer ${key}`]] })).status === 200 ? true : undefined),
      { timeoutMs: 15_000, intervalMs: 100, what: 'the server to recover' },
    );
  }

  // SIGTERM, so the buffered log lines are flushed before the logs are read.
  const stopped = await server.stop('SIGTERM', 10_000);
  assert.equal(stopped.code, 0, server.stderr());
  const stdout = server.stdout();
  const lines = stdout.split('\n').filter((line) => line !== '');
  assert.ok(lines.length >= collected.answers.length / 2, `the run was logged (${lines.length} lines)`);
  for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a log line is one JSON object: ${line.slice(0, 200)}`);
  if (backendFailure) assert.match(stdout, /"level":40/, 'the outage was logged');
  assertNothingLeaks(
    [
      ...lines.map((line, i) => ({ what: `log line ${i + 1}`, text: line })),
      { what: 'stderr', text: server.stderr() },
      ...collected.answers.map(({ what, answer }) => ({ what: `the answer to ${what}`, text: answer.text + JSON.stringify(answer.headers) })),
    ],
    [key, ...wrongKeys],
  );
}

test('when a server at LOG_LEVEL=trace (SQLite) runs a mixed workload of successes, errors and hostile requests, then no log line and no answer holds a key, a stack trace or SQL, and every answer carries the security headers', async (t) => {
  const path = join(tempDir(t), 'rates.db');
  const key = await prepareStore({ databaseUrl: `sqlite:${path}` });
  await runAndSearch(t, serviceEnv(path), key);
});

test('when a server at LOG_LEVEL=trace (PostgreSQL + Redis) runs the same workload and both backends go away and come back, then no log line and no answer holds a key, a stack trace or SQL', async (t) => {
  if (!(await requireBackend('PostgreSQL', t)) || !(await requireBackend('Redis', t))) return;
  const schema = await freshPgSchema(t);
  const prefix = freshRedisPrefix(t);
  const key = await prepareStore({ databaseUrl: schema.url, redisUrl: redisUrl(), redisKeyPrefix: prefix });
  const pgTarget = new URL(postgresUrl());
  const redisTarget = new URL(redisUrl());
  const pgProxy = await startTcpProxy(pgTarget.hostname, Number(pgTarget.port || 5432));
  const redisProxy = await startTcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
  t.after(() => Promise.all([pgProxy.close(), redisProxy.close()]));
  const pgUrl = new URL(postgresUrl());
  pgUrl.hostname = '127.0.0.1';
  pgUrl.port = String(pgProxy.port);
  const env = serviceEnv('unused', {
    DATABASE_URL: withSearchPath(pgUrl.toString(), schema.schema),
    REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
    REDIS_KEY_PREFIX: prefix,
  });
  await runAndSearch(t, env, key, { proxies: [pgProxy, redisProxy] });
});
