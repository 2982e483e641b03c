import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { KeyCache } from '../../src/live/key-cache.js';
import type { KeyStore } from '../../src/storage/ports.js';

/** A key store in memory whose findActive answers only when the test lets it. */
function storeWith(key: string) {
  let active = true;
  let version = 1;
  let release: (() => void) | undefined;
  const asked = { lookups: 0 };
  const store: KeyStore = {
    create: async () => {
      throw new Error('not used');
    },
    list: async () => [],
    revoke: async () => false,
    findActive: async (hash) => {
      asked.lookups++;
      const answer = active && hash === hashApiKey(key) ? 7 : undefined;
      await new Promise<void>((resolve) => (release = resolve));
      return answer;
    },
    activeKeys: async () => new Map(active ? [[hashApiKey(key), 7]] : []),
    version: async () => version,
  };
  return {
    store,
    asked,
    revoke: () => {
      active = false;
      version++;
    },
    release: () => release?.(),
  };
}

test('when a key is revoked while its first lookup is in flight, then the lookup answers as it was asked but the cache does not keep the key', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  const lookup = cache.authenticate(key);
  fake.revoke();
  await cache.refresh();
  fake.release();
  assert.equal(await lookup, 7, 'the store found it before the revocation');
  const again = cache.authenticate(key);
  setImmediate(() => fake.release());
  assert.equal(await again, undefined, 'the revocation wins: the key is not held');
  assert.equal(fake.asked.lookups, 2, 'the second request asked the store again');
});

test('when a fresh key is found by its first lookup, then the cache holds it for the next request', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  const lookup = cache.authenticate(key);
  setImmediate(() => fake.release());
  assert.equal(await lookup, 7);
  assert.equal(await cache.authenticate(key), 7);
  assert.equal(fake.asked.lookups, 1, 'the second request was answered from memory');
});

test('when a cached key is authenticated, then the cache also holds it as the quota counts it, its id and hash, the same object every time', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  await cache.refresh();
  assert.equal(await cache.authenticate(key), 7);
  const quotaKey = cache.quotaKey(7);
  assert.deepEqual(quotaKey, { id: 7, hash: hashApiKey(key) });
  assert.equal(cache.quotaKey(7), quotaKey, 'made once per key, not per request');
  assert.equal(cache.quotaKey(8), undefined);
  assert.equal(fake.asked.lookups, 0, 'answered from memory');
});

test('when a fresh key is found by its first lookup, then the hash authenticate made comes along for the quota', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  const lookup = cache.authenticate(key);
  setImmediate(() => fake.release());
  assert.equal(await lookup, 7);
  assert.deepEqual(cache.quotaKey(7), { id: 7, hash: hashApiKey(key) });
});

test('when a key is revoked while its first lookup is in flight, then its id still names its hash for the request that lookup answered', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  const lookup = cache.authenticate(key);
  fake.revoke();
  await cache.refresh();
  fake.release();
  assert.equal(await lookup, 7);
  assert.deepEqual(cache.quotaKey(7), { id: 7, hash: hashApiKey(key) }, 'counted under its own hash');
  const again = cache.authenticate(key);
  setImmediate(() => fake.release());
  assert.equal(await again, undefined, 'and it is not authenticated again');
});
