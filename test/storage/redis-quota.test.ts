import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../../src/storage/ports.js';
import { openRedisQuota, type RedisQuota } from '../../src/storage/redis/open-redis-quota.js';
import { freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { startSilentServer, startTcpProxy } from '../helpers/tcp-proxy.js';
import { quotaStoreContract } from './contracts/quota-store-contract.js';
import { randomKeyHash } from './quota-keys.js';

const DAY = 86_400_000;
/** A key as the quota store counts it; each test has a prefix of its own. */
const KEY = { id: 1, hash: randomKeyHash() };

async function openRedis(t: TestContext, url = redisUrl()): Promise<RedisQuota & { prefix: string }> {
  const prefix = freshRedisPrefix(t);
  const handle = await openRedisQuota(url, prefix);
  t.after(() => handle.close());
  return { ...handle, prefix };
}

/** A plain client on the test server, to look at what the adapter wrote. */
async function inspector(t: TestContext): Promise<Redis> {
  const redis = new Redis(redisUrl(), { lazyConnect: true });
  await redis.connect();
  t.after(() => redis.quit());
  return redis;
}

async function assertUnavailable(promise: Promise<unknown>, withinMs: number): Promise<void> {
  const started = performance.now();
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof StoreUnavailableError, `expected StoreUnavailableError, got ${String(err)}`);
    assert.equal(err.backend, 'Redis');
    return true;
  });
  const elapsed = performance.now() - started;
  assert.ok(elapsed < withinMs, `answered after ${Math.round(elapsed)} ms, expected under ${withinMs} ms`);
}

const skip = await requireBackend('Redis');

describe('Redis quota store', { skip }, () => {
  quotaStoreContract('contract', async (t) => {
    const handle = await openRedis(t);
    let nextKey = 1;
    return { quota: handle.quota, newKey: async () => ({ id: nextKey++, hash: randomKeyHash() }), close: handle.close };
  }, { arrivalOrder: true, countsByHash: true });

  test("when a request is counted, then one key, hash-tagged with the key's hash, holds the counter, expiring after the period", async (t) => {
    const { quota, prefix } = await openRedis(t);
    const redis = await inspector(t);
    const now = Date.UTC(2026, 10, 21);
    const key = { id: 42, hash: randomKeyHash() };
    await quota.consume(key, now, { limit: 10, periodMs: 30 * DAY });
    await quota.consume(key, now + 1, { limit: 10, periodMs: 30 * DAY });
    assert.deepEqual(await redis.keys(`${prefix}*`), [`${prefix}quota:{${key.hash}}`]);
    assert.deepEqual(await redis.hgetall(`${prefix}quota:{${key.hash}}`), { start: String(now), used: '2' });
    const ttl = await redis.pttl(`${prefix}quota:{${key.hash}}`);
    assert.ok(ttl > 30 * DAY && ttl <= 30 * DAY + 2 * 3_600_000, `pttl ${ttl}`);
  });

  describe('counters named by key id (earlier versions), adopted at opening with the key store', () => {
    const [x, y, revoked] = [{ id: 3, hash: randomKeyHash() }, { id: 4, hash: randomKeyHash() }, { id: 5, hash: randomKeyHash() }];
    const keyStore = { activeKeys: async () => new Map([[x.hash, { id: x.id, quota: null }], [y.hash, { id: y.id, quota: null }]]) };
    const start = Date.UTC(2026, 10, 20);
    const policy = { limit: 10, periodMs: 30 * DAY };

    async function withLegacy(prefix: string, redis: Redis): Promise<void> {
      for (const [id, used] of [[x.id, 4], [revoked.id, 2]] as const) {
        await redis.hset(`${prefix}quota:{${id}}`, 'start', String(start), 'used', String(used));
        await redis.pexpire(`${prefix}quota:{${id}}`, 10 * DAY);
      }
    }

    test('when a key has a legacy counter, then it is moved to the key hash with its count and expiry, and opening again changes nothing', async (t) => {
      const prefix = freshRedisPrefix(t);
      const redis = await inspector(t);
      await withLegacy(prefix, redis);
      const first = await openRedisQuota(redisUrl(), prefix, { keys: keyStore });
      t.after(() => first.close());
      assert.deepEqual(first.adopted, { moved: 1, dropped: 0 });
      assert.equal(await redis.exists(`${prefix}quota:{${x.id}}`), 0, 'the legacy name is gone');
      assert.deepEqual(await redis.hgetall(`${prefix}quota:{${x.hash}}`), { start: String(start), used: '4' });
      const ttl = await redis.pttl(`${prefix}quota:{${x.hash}}`);
      assert.ok(ttl > 10 * DAY - 60_000 && ttl <= 10 * DAY, `the expiry came along: pttl ${ttl}`);
      assert.deepEqual(await first.quota.usage(x), { used: 4, periodStart: start });
      assert.deepEqual(await first.quota.usage(x.id), { used: 4, periodStart: start }, 'by id, through the key store');
      assert.equal(await first.quota.usage(y), undefined, 'a key without a legacy counter has none');
      assert.deepEqual(await first.quota.consume(x, start + 1, policy), { allowed: true, used: 5, periodStart: start });
      assert.equal(await redis.exists(`${prefix}quota:{${revoked.id}}`), 1, "a key not in the key store (revoked) is not touched: its counter expires");

      const before = { keys: (await redis.keys(`${prefix}*`)).sort(), counter: await redis.hgetall(`${prefix}quota:{${x.hash}}`) };
      const again = await openRedisQuota(redisUrl(), prefix, { keys: keyStore });
      t.after(() => again.close());
      assert.deepEqual(again.adopted, { moved: 0, dropped: 0 });
      assert.deepEqual({ keys: (await redis.keys(`${prefix}*`)).sort(), counter: await redis.hgetall(`${prefix}quota:{${x.hash}}`) }, before);
      assert.deepEqual(before.counter, { start: String(start), used: '5' });
    });

    test('when several instances open at once, then the legacy counter is moved once and its count is exact', async (t) => {
      const prefix = freshRedisPrefix(t);
      const redis = await inspector(t);
      await withLegacy(prefix, redis);
      const opened = await Promise.all(Array.from({ length: 4 }, () => openRedisQuota(redisUrl(), prefix, { keys: keyStore })));
      t.after(() => Promise.all(opened.map((handle) => handle.close())));
      assert.deepEqual(opened.map((handle) => handle.adopted.moved).sort(), [0, 0, 0, 1]);
      assert.deepEqual(await redis.hgetall(`${prefix}quota:{${x.hash}}`), { start: String(start), used: '4' });
      assert.equal(await redis.exists(`${prefix}quota:{${x.id}}`), 0);
    });

    test('when the key already counts under its hash, then its legacy counter is dropped and the count by hash kept', async (t) => {
      const prefix = freshRedisPrefix(t);
      const redis = await inspector(t);
      await withLegacy(prefix, redis);
      const plain = await openRedisQuota(redisUrl(), prefix);
      t.after(() => plain.close());
      await plain.quota.consume(x, start + 7, policy);
      const opened = await openRedisQuota(redisUrl(), prefix, { keys: keyStore });
      t.after(() => opened.close());
      assert.deepEqual(opened.adopted, { moved: 0, dropped: 1 });
      assert.equal(await redis.exists(`${prefix}quota:{${x.id}}`), 0);
      assert.deepEqual(await opened.quota.usage(x), { used: 1, periodStart: start + 7 });
    });
  });

  test('when Redis has lost its scripts (restart, failover), then the next request loads the script again', async (t) => {
    const { quota } = await openRedis(t);
    const redis = await inspector(t);
    await quota.consume(KEY, 0, { limit: 5, periodMs: DAY });
    await redis.script('FLUSH');
    assert.deepEqual(await quota.consume(KEY, 1, { limit: 5, periodMs: DAY }), { allowed: true, used: 2, periodStart: 0 });
  });

  test('when two clients (two processes) share the counters, then the limit holds across both', async (t) => {
    const first = await openRedis(t);
    const second = await openRedisQuota(redisUrl(), first.prefix);
    t.after(() => second.close());
    const policy = { limit: 150, periodMs: DAY };
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? second : first).quota.consume(KEY, 1_000, policy)),
    );
    const used = decisions.filter((d) => d.allowed).map((d) => d.used).sort((a, b) => a - b);
    assert.deepEqual(used, Array.from({ length: 150 }, (_, i) => i + 1));
  });

  test('when Redis goes away, then requests fail fast with StoreUnavailableError, and the client recovers by itself', async (t) => {
    const target = new URL(redisUrl());
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    t.after(() => proxy.close());
    const proxied = new URL(redisUrl());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const { quota, ping } = await openRedis(t, proxied.toString());
    const policy = { limit: 10, periodMs: DAY };
    await quota.consume(KEY, 0, policy);

    await proxy.cut();
    await assertUnavailable(quota.consume(KEY, 1, policy), 1_500);
    await assertUnavailable(quota.usage(KEY), 1_500);
    await assertUnavailable(ping(), 1_500);

    await proxy.restore();
    const deadline = Date.now() + 6_000;
    for (;;) {
      try {
        assert.deepEqual(await quota.consume(KEY, 2, policy), { allowed: true, used: 2, periodStart: 0 });
        break;
      } catch (err) {
        if (!(err instanceof StoreUnavailableError) || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });

  test('when Redis stops answering on a live connection, then a request fails with StoreUnavailableError after the command timeout', async (t) => {
    const target = new URL(redisUrl());
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    t.after(() => proxy.close());
    const proxied = new URL(redisUrl());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const { quota } = await openRedis(t, proxied.toString());
    await quota.consume(KEY, 0, { limit: 10, periodMs: DAY });
    proxy.stall();
    await assertUnavailable(quota.consume(KEY, 1, { limit: 10, periodMs: DAY }), 2_000);
  });
});

describe('Redis quota store, server unreachable', () => {
  test('when nothing listens on the port, then openRedisQuota rejects with StoreUnavailableError', async () => {
    await assertUnavailable(openRedisQuota('redis://127.0.0.1:1', 'cr_test_unreachable:', { connectTimeoutMs: 1_000 }), 2_000);
  });

  test('when the server accepts but never answers, then openRedisQuota rejects with StoreUnavailableError', async (t) => {
    const silent = await startSilentServer();
    t.after(() => silent.close());
    await assertUnavailable(openRedisQuota(`redis://127.0.0.1:${silent.port}`, 'cr_test_silent:', { connectTimeoutMs: 1_000 }), 2_000);
  });
});
