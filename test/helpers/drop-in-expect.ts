import assert from 'node:assert/strict';
import { JSON_TYPE } from './http-expect.js';
import type { TestContext } from 'node:test';
import { loadWebFiles } from '../../src/http/routes/web-page.js';
import { FIXTURES, read, startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** The currencies the drop-in suites serve: the ones hist.csv quotes, so every answer is short. */
export const DROP_IN_CURRENCIES = 'EUR,USD,JPY,GBP,CHF,BGN,HUF';

/**
 * The production server on a socket (third-party clients need one), with hist.csv and the drop-in
 * currencies unless told otherwise, and the stand-in page at `/` so that no build is needed.
 */
export function startDropInServer(t: TestContext, options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer(
    t,
    { ingest: ['hist.csv'], ...options, env: { CURRENCIES: DROP_IN_CURRENCIES, ...options.env } },
    { webFiles: loadWebFiles(`${FIXTURES}web-page/`) },
  );
}

/**
 * Reads the answer and asserts status, content type and the exact body text: the drop-in paths
 * write JSON numbers from exact strings, so the bytes are the claim, not a parsed value.
 */
export async function expectText(response: Response | Promise<Response>, status: number, text: string, what = '') {
  const answer = await read(await response);
  const label = what ? `${what}: ` : '';
  assert.equal(answer.status, status, `${label}status (body ${answer.text})`);
  assert.equal(answer.text, text, `${label}body`);
  assert.equal(answer.headers.get('content-type'), JSON_TYPE, `${label}content-type`);
  return answer;
}

/** expectText for a subtest's body: the same assertions, nothing returned. */
export async function answers(response: Response | Promise<Response>, status: number, text: string, what = ''): Promise<void> {
  await expectText(response, status, text, what);
}

/** The used count of a key as GET /api/v1/usage shows it (that request included). */
export async function usedBy(url: string, key: string): Promise<number> {
  const answer = await read(await fetch(`${url}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } }));
  assert.equal(answer.status, 200, answer.text);
  return (answer.json as { used: number }).used;
}
