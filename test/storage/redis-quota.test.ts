import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../../src/storage/ports.js';
import { openRedisQuota, type RedisQuota } from '../../src/storage/redis/open-redis-quota.js';
import { freshRedisPrefix, redisUrl, requireBackend } from '../helpers/backends.js';
import { startSilentServer, startTcpProxy } from '../helpers/tcp-proxy.js';
import { quotaStoreContract } from './contracts/quota-store-contract.js';

const DAY = 86_400_000;

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
    return { quota: handle.quota, newKeyId: async () => nextKey++, close: handle.close };
  }, { arrivalOrder: true });

  test('when a request is counted, then one hash-tagged key holds the counter, expiring after the period', async (t) => {
    const { quota, prefix } = await openRedis(t);
    const redis = await inspector(t);
    const now = Date.UTC(2026, 10, 21);
    await quota.consume(42, now, { limit: 10, periodMs: 30 * DAY });
    await quota.consume(42, now + 1, { limit: 10, periodMs: 30 * DAY });
    assert.deepEqual(await redis.keys(`${prefix}*`), [`${prefix}quota:{42}`]);
    assert.deepEqual(await redis.hgetall(`${prefix}quota:{42}`), { start: String(now), used: '2' });
    const ttl = await redis.pttl(`${prefix}quota:{42}`);
    assert.ok(ttl > 30 * DAY && ttl <= 30 * DAY + 2 * 3_600_000, `pttl ${ttl}`);
  });

  test('when Redis has lost its scripts (restart, failover), then the next request loads the script again', async (t) => {
    const { quota } = await openRedis(t);
    const redis = await inspector(t);
    await quota.consume(1, 0, { limit: 5, periodMs: DAY });
    await redis.script('FLUSH');
    assert.deepEqual(await quota.consume(1, 1, { limit: 5, periodMs: DAY }), { allowed: true, used: 2, periodStart: 0 });
  });

  test('when two clients (two processes) share the counters, then the limit holds across both', async (t) => {
    const first = await openRedis(t);
    const second = await openRedisQuota(redisUrl(), first.prefix);
    t.after(() => second.close());
    const policy = { limit: 150, periodMs: DAY };
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? second : first).quota.consume(7, 1_000, policy)),
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
    await quota.consume(1, 0, policy);

    await proxy.cut();
    await assertUnavailable(quota.consume(1, 1, policy), 1_500);
    await assertUnavailable(quota.usage(1), 1_500);
    await assertUnavailable(ping(), 1_500);

    await proxy.restore();
    const deadline = Date.now() + 6_000;
    for (;;) {
      try {
        assert.deepEqual(await quota.consume(1, 2, policy), { allowed: true, used: 2, periodStart: 0 });
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
    await quota.consume(1, 0, { limit: 10, periodMs: DAY });
    proxy.stall();
    await assertUnavailable(quota.consume(1, 1, { limit: 10, periodMs: DAY }), 2_000);
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
