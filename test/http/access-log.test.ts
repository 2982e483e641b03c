import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { accessLine, accessLineWriter } from '../../src/http/access-log.js';
import type { RequestId } from '../../src/http/request-id.js';
import { loggerOptions } from '../../src/logger.js';

/** A logger configured as the server's, its lines kept. */
function capturing(level = 'info') {
  const lines: string[] = [];
  const log = pino(loggerOptions(level), { write: (line: string) => lines.push(line) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":T');

const CASES: Parameters<typeof accessLine>[] = [
  ['4f1c2a8e-1b7d-4c55-9a0e-3f2b8c1d9e70', 'GET', '/api/v1/rates/latest', '/api/v1/rates/latest', 200, 0.123456, 1],
  ['caller:id-1.x', 'GET', '/api/v1/convert/bulk?from=GBP&to=USD,JPY&amount=12345.67', '/api/v1/convert/bulk', 304, 12.345, 42],
  ['r', 'GET', '/api/v1/rates/latest?q="quoted"\\back\u00e9\u2028\u0001', '/api/v1/rates/latest', 429, 1.005, 7],
  ['r', 'GET', `/api/v1/currencies?${'x'.repeat(5000)}`, '/api/v1/currencies', 503, 0, 0],
  ['r', 'GET', '/', '/api/v1/rates/:date', 200, 1e-9, 2 ** 31],
  // (A lone surrogate is left out: pino writes it raw where JSON.stringify escapes it; a URL from
  // Node's parser is latin1 text and can hold none.)
  ['r', 'GET', '/api/v1/rates/latest?s=\ud83d\ude00&del=\u007f\u00ff', '/api/v1/rates/latest', 200, 2, 3],
  // A request without a key (a 401): no key id at all.
  ['r', 'GET', '/api/v1/rates/latest', '/api/v1/rates/latest', 401, 0.5, undefined],
];

test('when the fast path writes an access line, then it is byte for byte the line pino writes for the same fields', () => {
  const ours = capturing();
  const theirs = capturing();
  for (const fields of CASES) {
    const [reqId, method, url, route, status, elapsedMs, keyId] = fields as [string, string, string, string, number, number, number | undefined];
    accessLineWriter(ours.log, method, route)(reqId as RequestId, url, status, elapsedMs, keyId);
    theirs.log.info(accessLine(...fields), 'request');
  }
  assert.equal(ours.lines.length, CASES.length);
  assert.deepEqual(ours.lines.map(withoutTime), theirs.lines.map(withoutTime));
  for (const line of ours.lines) assert.ok(line.endsWith('}\n') && JSON.parse(line).msg === 'request');
  assert.equal('keyId' in JSON.parse(ours.lines.at(-1)!), false);
});

test('when the log level is above info, then the fast path writes no access line', () => {
  const quiet = capturing('warn');
  accessLineWriter(quiet.log, 'GET', '/')('r' as RequestId, '/', 200, 1, 1);
  assert.deepEqual(quiet.lines, []);
  quiet.log.level = 'info';
  accessLineWriter(quiet.log, 'GET', '/')('r' as RequestId, '/', 200, 1, 1);
  assert.equal(quiet.lines.length, 1);
});

test('when the logger is not pino, then the access line goes through its info method', () => {
  const calls: unknown[][] = [];
  const other = { info: (...args: unknown[]) => calls.push(args) } as unknown as FastifyBaseLogger;
  accessLineWriter(other, 'GET', '/route')('r' as RequestId, '/u', 200, 1.234, 3);
  assert.deepEqual(calls, [[accessLine('r', 'GET', '/u', '/route', 200, 1.234, 3), 'request']]);
});
