import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStores } from '../../src/storage/open-stores.js';
import { expectJson, rateLimited, remainingOf, type ReadResponse } from '../helpers/http-expect.js';
import { pollUntil } from '../helpers/server-process.js';
import { prepareDatabase, startOnDatabase } from '../helpers/shared-database.js';
import { ManualClock, read } from '../helpers/test-server.js';

/** DECISIONS §10: a key's own quota replaces QUOTA_LIMIT for it; GET /usage tells a key where it stands. */

const V1 = '/api/v1';
const DAY = 86_400_000;
const PERIOD = 30 * DAY;
const T0 = Date.UTC(2026, 0, 1, 9, 30, 0, 250); // not on a whole second: the rounding of both ends shows
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The /usage body and the X-RateLimit headers of the same answer say the same thing. */
function assertUsageMatchesHeaders(answer: ReadResponse): void {
  const body = answer.json as { limit: number; used: number; remaining: number; period_start: string; period_end: string };
  assert.equal(String(body.limit), answer.headers.get('x-ratelimit-limit'), 'limit = X-RateLimit-Limit');
  assert.equal(String(body.remaining), answer.headers.get('x-ratelimit-remaining'), 'remaining = X-RateLimit-Remaining');
  assert.equal(String(Date.parse(body.period_end) / 1000), answer.headers.get('x-ratelimit-reset'), 'period_end = X-RateLimit-Reset');
  assert.equal(body.remaining, body.limit - body.used, 'remaining = limit − used');
  assert.equal(Date.parse(body.period_end) - Date.parse(body.period_start), PERIOD, 'period_end − period_start = the period, exactly');
}

test('GET /api/v1/usage', async (t) => {
  const clock = new ManualClock(T0);
  const database = await prepareDatabase(t, { keys: 2, quotas: [null, 3], ingest: ['hist.csv'] });
  const server = await startOnDatabase(t, database, { env: { QUOTA_LIMIT: '5' }, clock });
  const [plain, own] = database.keys.map((k) => k.key) as [string, string];

  await t.test('when it is the first request of a key, then it counts itself: used 1, the period from now, ends to the second as the headers say', async () => {
    const answer = await expectJson(server.get(`${V1}/usage`, { key: plain }), 200, {
      limit: 5,
      used: 1,
      remaining: 4,
      period_start: '2026-01-01T09:30:01Z',
      period_end: iso(Math.ceil((T0 + PERIOD) / 1000) * 1000),
    });
    assert.equal(answer.json && (answer.json as { period_end: string }).period_end, '2026-01-31T09:30:01Z');
    assertUsageMatchesHeaders(answer);
    assert.ok(answer.headers.get('etag'), 'a 200 of the API carries an ETag');
  });

  await t.test('when other requests (200, 400, 404) and a HEAD of /usage came between, then it counts them all and itself', async () => {
    clock.advance(1_000);
    assert.equal((await server.get(`${V1}/currencies`, { key: plain })).status, 200);
    assert.equal((await server.get(`${V1}/rates/latest?base=EURO`, { key: plain })).status, 400);
    assert.equal((await server.get(`${V1}/usage`, { key: plain, method: 'HEAD' })).status, 200);
    clock.advance(1_000);
    const answer = await expectJson(server.get(`${V1}/usage?ignored=1`, { key: plain }), 200, {
      limit: 5,
      used: 5,
      remaining: 0,
      period_start: '2026-01-01T09:30:01Z',
      period_end: '2026-01-31T09:30:01Z',
    });
    assertUsageMatchesHeaders(answer);
  });

  await t.test('when the quota is used up, then /usage too answers the 429 and is not counted', async () => {
    const answer = await expectJson(server.get(`${V1}/usage`, { key: plain }), 429, { statusCode: 429, message: rateLimited(5, 30) });
    assert.equal(answer.headers.get('x-ratelimit-remaining'), '0');
  });

  await t.test("when a key has its own quota (3), then /usage and the headers state it, and the 429 names that key's number", async () => {
    clock.advance(60_000);
    const first = await expectJson(server.get(`${V1}/usage`, { key: own }), 200, {
      limit: 3,
      used: 1,
      remaining: 2,
      period_start: '2026-01-01T09:31:03Z',
      period_end: '2026-01-31T09:31:03Z',
    });
    assertUsageMatchesHeaders(first);
    for (const remaining of [1, 0]) assert.equal(remainingOf(await read(await server.get(`${V1}/currencies`, { key: own }))), remaining);
    await expectJson(server.get(`${V1}/usage`, { key: own }), 429, { statusCode: 429, message: rateLimited(3, 30) });
  });

  await t.test('when the period is over, then /usage shows a fresh period starting at that request', async () => {
    const later = T0 + PERIOD + 5_500;
    clock.current = later;
    const answer = await expectJson(server.get(`${V1}/usage`, { key: plain }), 200, {
      limit: 5,
      used: 1,
      remaining: 4,
      period_start: iso(Math.ceil(later / 1000) * 1000),
      period_end: iso(Math.ceil((later + PERIOD) / 1000) * 1000),
    });
    assertUsageMatchesHeaders(answer);
  });

  await t.test('when no key or a wrong one is sent, then 401 and nothing is counted', async () => {
    const none = await read(await fetch(`${server.url}${V1}/usage`));
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('x-ratelimit-limit'), null);
    assert.equal((await server.get(`${V1}/usage`, { key: 'cr_wrong' })).status, 401);
  });

  await t.test('when another method or a preflight comes, then 405 and 204, without a key and not counted', async () => {
    const posted = await read(await fetch(`${server.url}${V1}/usage`, { method: 'POST' }));
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');
    const preflight = await fetch(`${server.url}${V1}/usage`, { method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' } });
    assert.equal(preflight.status, 204);
    const after = await read(await server.get(`${V1}/usage`, { key: plain }));
    assert.equal((after.json as { used: number }).used, 2, 'only the /usage requests of this period counted');
  });
});

test("when a key's quota is raised, lowered and cleared while the server runs, then each change applies within 5 s, to the current period", async (t) => {
  const clock = new ManualClock(T0);
  const database = await prepareDatabase(t, { keys: 1, quotas: [2] });
  const server = await startOnDatabase(t, database, { env: { QUOTA_LIMIT: '10' }, clock });
  const { key, id } = database.keys[0]!;
  const stores = await openStores(database.storeConfig);
  t.after(() => stores.close());

  for (const remaining of [1, 0]) assert.equal(remainingOf(await read(await server.get(`${V1}/currencies`))), remaining);
  await expectJson(server.get(`${V1}/currencies`), 429, { statusCode: 429, message: rateLimited(2, 30) });

  /** Sets the quota, then asks /usage until it answers with the new limit; each probe is a counted request. */
  const change = async (quota: number | null, expectedLimit: number) => {
    assert.equal(await stores.keys.setQuota(id, quota), true);
    const started = performance.now();
    const answer = await pollUntil(
      async () => {
        const probe = await read(await server.get(`${V1}/usage`, { key }));
        return probe.headers.get('x-ratelimit-limit') === String(expectedLimit) ? probe : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 50, what: `the limit ${expectedLimit}` },
    );
    t.diagnostic(`quota ${quota ?? 'default'} applied after ${Math.round(performance.now() - started)} ms`);
    return answer.value;
  };

  // Raised to 4: the same period goes on, 2 used, this /usage is the 3rd.
  const raised = await change(4, 4);
  assert.equal(raised.status, 200);
  assert.deepEqual(raised.json, { limit: 4, used: 3, remaining: 1, period_start: '2026-01-01T09:30:01Z', period_end: '2026-01-31T09:30:01Z' });
  assert.equal(remainingOf(await read(await server.get(`${V1}/currencies`))), 0);
  // Lowered to 1 with 4 used: refused, stating the new number. (Every probe is refused, before the change as after it.)
  const lowered = await change(1, 1);
  assert.equal(lowered.status, 429);
  assert.equal(lowered.text, JSON.stringify({ statusCode: 429, message: rateLimited(1, 30) }));
  // Cleared: QUOTA_LIMIT (10) again, the count still 4, and this /usage the 5th.
  const cleared = await change(null, 10);
  assert.deepEqual(cleared.json, { limit: 10, used: 5, remaining: 5, period_start: '2026-01-01T09:30:01Z', period_end: '2026-01-31T09:30:01Z' });
});

test('when 50 concurrent clients share two keys with quotas 7 and 300 (QUOTA_LIMIT 1000), then exactly 7 and 300 succeed, and every 429 names its key\'s quota', async (t) => {
  const database = await prepareDatabase(t, { keys: 2, quotas: [7, 300] });
  const server = await startOnDatabase(t, database, { env: { QUOTA_LIMIT: '1000' } });
  const [small, large] = database.keys.map((k) => k.key) as [string, string];
  const total = 800;
  let next = 0;
  const answers: (ReadResponse & { key: string })[] = [];
  const client = async () => {
    while (next < total) {
      const key = next++ % 2 === 0 ? small : large;
      answers.push({ ...(await read(await server.get(`${V1}/currencies`, { key }))), key });
    }
  };
  await Promise.all(Array.from({ length: 50 }, client));
  for (const [key, quota] of [[small, 7], [large, 300]] as const) {
    const mine = answers.filter((answer) => answer.key === key);
    const ok = mine.filter((answer) => answer.status === 200);
    assert.equal(ok.length, quota, `exactly ${quota} succeed`);
    assert.deepEqual(ok.map(remainingOf).sort((a, b) => a - b), Array.from({ length: quota }, (_, i) => i), 'remaining 0..quota−1, each once');
    for (const answer of mine.filter((a) => a.status !== 200)) {
      assert.equal(answer.text, JSON.stringify({ statusCode: 429, message: rateLimited(quota, 30) }));
    }
  }
});
