import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStores } from '../../src/storage/open-stores.js';
import { expectJson, rateLimited, remainingOf, type ReadResponse } from '../helpers/http-expect.js';
import { prepareDatabase, startOnDatabase } from '../helpers/shared-database.js';
import { ManualClock, read, startTestApp } from '../helpers/test-server.js';

/** DECISIONS §4: what counts, the fixed period, the headers, exactness under concurrency, restarts. */

const V1 = '/api/v1';
const DAY = 86_400_000;
const PERIOD = 30 * DAY;
const T0 = Date.UTC(2026, 0, 1, 9, 30, 0, 250); // not on a whole second, so ceil() shows

const resetOf = (periodStart: number, period = PERIOD) => String(Math.ceil((periodStart + period) / 1000));

function assertQuotaHeaders(answer: ReadResponse, limit: number, remaining: number, reset: string, what: string): void {
  assert.equal(answer.headers.get('x-ratelimit-limit'), String(limit), `${what}: limit`);
  assert.equal(answer.headers.get('x-ratelimit-remaining'), String(remaining), `${what}: remaining`);
  assert.equal(answer.headers.get('x-ratelimit-reset'), reset, `${what}: reset`);
}

test('QUOTA_LIMIT=5: what counts, 429, and a fresh period', async (t) => {
  const clock = new ManualClock(T0);
  const server = await startTestApp(t, { ingest: ['hist.csv'], clock, env: { QUOTA_LIMIT: '5' } });
  const reset = resetOf(T0);
  const body429 = { statusCode: 429, message: rateLimited(5, 30) };
  const usedInStore = async () => {
    const stores = await openStores(server.storeConfig);
    try {
      return (await stores.quota.usage(server.keyId))?.used;
    } finally {
      await stores.close();
    }
  };

  await t.test('when 5 requests (200, 304, 400, 404, 200) come with 401s between, then remaining 4..0 and a fixed reset', async () => {
    const first = await read(await server.get(`${V1}/rates/latest`));
    assert.equal(first.status, 200);
    assertQuotaHeaders(first, 5, 4, reset, '200');
    clock.advance(1000);
    for (const headers of [{ authorization: 'Bearer wrong' }, { authorization: 'Basic x' }]) {
      assert.equal((await server.get(`${V1}/rates/latest`, { headers })).status, 401);
    }
    assert.equal((await server.get(`${V1}/currencies`, { auth: false })).status, 401);
    const etag = first.headers.get('etag') ?? '';
    const steps: [string, Record<string, string>, number][] = [
      [`${V1}/rates/latest`, { 'if-none-match': etag }, 304],
      [`${V1}/rates/latest?base=EURO`, {}, 400],
      [`${V1}/rates/2026-04-11`, {}, 404],
      [`${V1}/currencies`, {}, 200],
    ];
    for (const [i, [path, headers, status]] of steps.entries()) {
      clock.advance(700);
      const answer = await read(await server.get(path, { headers }));
      assert.equal(answer.status, status, path);
      assertQuotaHeaders(answer, 5, 3 - i, reset, `${status} ${path}`);
      assert.equal(answer.headers.get('retry-after'), null);
    }
  });

  await t.test('when a 6th request comes, then 429 with Retry-After = seconds to the reset', async () => {
    clock.advance(400); // now = T0 + 4.2 s: 30 days − 4.2 s = 2591995.8 s → 2591996
    const answer = await expectJson(server.get(`${V1}/rates/latest`), 429, body429);
    assertQuotaHeaders(answer, 5, 0, reset, '429');
    assert.equal(answer.headers.get('retry-after'), '2591996');
  });

  await t.test('when more 429s come, then they are not counted', async () => {
    for (let i = 0; i < 3; i++) await expectJson(server.get(`${V1}/currencies`), 429, body429);
    assert.equal(await usedInStore(), 5);
  });

  await t.test('when 1 ms is left in the period, then still 429 with Retry-After 1', async () => {
    clock.current = T0 + PERIOD - 1;
    const answer = await expectJson(server.get(`${V1}/currencies`), 429, body429);
    assert.equal(answer.headers.get('retry-after'), '1');
  });

  await t.test('when the clock passes the period, then a fresh period starts at that request', async () => {
    const later = T0 + PERIOD + 12_345;
    clock.current = later;
    const answer = await read(await server.get(`${V1}/currencies`));
    assert.equal(answer.status, 200);
    assertQuotaHeaders(answer, 5, 4, resetOf(later), 'first of the new period');
    assert.equal(await usedInStore(), 1);
  });
});

test('the period is fixed, not rolling', async (t) => {
  const clock = new ManualClock(T0);
  const server = await startTestApp(t, { clock, env: { QUOTA_LIMIT: '5' } });
  await t.test('when 1 request comes at T0 and 4 on day 29, then the first request after day 30 starts fresh', async () => {
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`)), 5, 4, resetOf(T0), 'T0');
    clock.current = T0 + 29 * DAY;
    for (const remaining of [3, 2, 1, 0]) {
      assertQuotaHeaders(await read(await server.get(`${V1}/currencies`)), 5, remaining, resetOf(T0), `day 29, ${remaining}`);
    }
    // A rolling window would still hold the 4 requests of day 29 here.
    const fresh = T0 + PERIOD + 1;
    clock.current = fresh;
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`)), 5, 4, resetOf(fresh), 'day 30 + 1 ms');
    clock.current = fresh + 29 * DAY;
    for (const remaining of [3, 2, 1, 0]) {
      assertQuotaHeaders(await read(await server.get(`${V1}/currencies`)), 5, remaining, resetOf(fresh), `next day 29, ${remaining}`);
    }
    assert.equal((await server.get(`${V1}/currencies`)).status, 429);
  });
});

test('QUOTA_PERIOD_DAYS=7 sets the reset and the 429 message', async (t) => {
  const clock = new ManualClock(T0);
  const server = await startTestApp(t, { clock, env: { QUOTA_LIMIT: '2', QUOTA_PERIOD_DAYS: '7' } });
  await t.test('when 3 requests come, then a 7-day reset and "2 requests per 7-day period"', async () => {
    for (const remaining of [1, 0]) {
      assertQuotaHeaders(await read(await server.get(`${V1}/currencies`)), 2, remaining, resetOf(T0, 7 * DAY), `${remaining}`);
    }
    const answer = await expectJson(server.get(`${V1}/currencies`), 429, { statusCode: 429, message: rateLimited(2, 7) });
    assert.equal(answer.headers.get('retry-after'), String(Math.ceil((7 * DAY) / 1000)));
  });
});

/** Sends `total` GETs of `path` from `workers` concurrent loops, over the given servers in turn. */
async function burst(gets: ((path: string) => Promise<Response>)[], total: number, workers: number): Promise<ReadResponse[]> {
  const answers: ReadResponse[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      answers.push(await read(await gets[i % gets.length]!(`${V1}/currencies`)));
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return answers;
}

function assertExactlyTheQuota(answers: ReadResponse[]): void {
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  assert.equal(ok.length, 1000, 'exactly the quota succeeds');
  assert.equal(limited.length, answers.length - 1000);
  for (const answer of limited) {
    assert.equal(answer.text, '{"statusCode":429,"message":"Rate limit exceeded: 1000 requests per 30-day period"}');
  }
  const remaining = ok.map(remainingOf).sort((a, b) => a - b);
  assert.deepEqual(remaining, Array.from({ length: 1000 }, (_, i) => i), 'the remaining values are 0..999, each once');
}

test('exact under concurrency', async (t) => {
  await t.test('when 1001 requests come from 50 concurrent workers, then exactly 1000 succeed', async (t2) => {
    const server = await startTestApp(t2);
    assertExactlyTheQuota(await burst([(path) => server.get(path)], 1001, 50));
  });
  await t.test('when 1010 requests are spread over two servers on one database, then exactly 1000 succeed', async (t2) => {
    const database = await prepareDatabase(t2);
    const a = await startOnDatabase(t2, database);
    const b = await startOnDatabase(t2, database);
    assertExactlyTheQuota(await burst([(path) => a.get(path), (path) => b.get(path)], 1010, 50));
  });
});

test('counts survive a restart', async (t) => {
  const clock = new ManualClock(T0);
  const database = await prepareDatabase(t, { ingest: ['hist.csv'] });
  const env = { QUOTA_LIMIT: '10' };
  await t.test('when 3 requests were counted before a restart, then the count continues after it', async () => {
    const first = await startOnDatabase(t, database, { env, clock });
    for (const remaining of [9, 8, 7]) {
      assertQuotaHeaders(await read(await first.get(`${V1}/rates/latest`)), 10, remaining, resetOf(T0), `before, ${remaining}`);
    }
    await first.close();
    clock.advance(60_000);
    const second = await startOnDatabase(t, database, { env, clock });
    for (const remaining of [6, 5, 4, 3, 2, 1, 0]) {
      assertQuotaHeaders(await read(await second.get(`${V1}/rates/latest`)), 10, remaining, resetOf(T0), `after, ${remaining}`);
    }
    assert.equal((await second.get(`${V1}/rates/latest`)).status, 429);
  });
});

test('two keys have independent quotas', async (t) => {
  const clock = new ManualClock(T0);
  const database = await prepareDatabase(t, { keys: 2 });
  const server = await startOnDatabase(t, database, { env: { QUOTA_LIMIT: '2' }, clock });
  const [a, b] = database.keys.map((k) => k.key) as [string, string];
  await t.test('when key A uses its quota up, then key B still has its own, with its own period', async () => {
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`, { key: a })), 2, 1, resetOf(T0), 'A 1');
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`, { key: a })), 2, 0, resetOf(T0), 'A 2');
    assert.equal((await server.get(`${V1}/currencies`, { key: a })).status, 429);
    clock.advance(3_600_000);
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`, { key: b })), 2, 1, resetOf(T0 + 3_600_000), 'B 1');
    assert.equal((await server.get(`${V1}/currencies`, { key: a })).status, 429);
    assertQuotaHeaders(await read(await server.get(`${V1}/currencies`, { key: b })), 2, 0, resetOf(T0 + 3_600_000), 'B 2');
    assert.equal((await server.get(`${V1}/currencies`, { key: b })).status, 429);
  });
});
