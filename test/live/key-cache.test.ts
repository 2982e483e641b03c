import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/api-keys.js';
import { KeyCache } from '../../src/live/key-cache.js';
import type { KeyStore } from '../../src/storage/ports.js';

/** A key store in memory holding one key, counting what it is asked. */
function storeWith(key: string) {
  let active = false;
  let quota: number | null = null;
  let version = 1;
  let reachable = true;
  const asked = { lookups: 0, versions: 0 };
  const store: KeyStore = {
    create: async () => {
      throw new Error('not used');
    },
    list: async () => [],
    revoke: async () => false,
    setQuota: async () => false,
    findActive: async () => {
      asked.lookups++;
      throw new Error('the cache must never look a key up');
    },
    activeKeys: async () => new Map(active ? [[hashApiKey(key), { id: 7, quota }]] : []),
    version: async () => {
      asked.versions++;
      if (!reachable) throw new Error('unreachable');
      return version;
    },
  };
  return {
    store,
    asked,
    create: () => {
      active = true;
      version++;
    },
    revoke: () => {
      active = false;
      version++;
    },
    setQuota: (value: number | null) => {
      quota = value;
      version++;
    },
    setReachable: (value: boolean) => {
      reachable = value;
    },
  };
}

test('when a key the cache does not hold is presented, then it is refused from memory: the store is never asked', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  await cache.refresh();
  for (const presented of [key, generateApiKey(), 'cr_', 'x', hashApiKey(key)]) assert.equal(await cache.authenticate(presented), undefined);
  assert.equal(fake.asked.lookups, 0);
  assert.equal(fake.asked.versions, 1, 'only the refresh asked anything');
});

test('when a key is created, then it works from the next refresh on; when it is revoked, then it is refused from the next refresh on', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  const cache = new KeyCache(fake.store);
  await cache.refresh();
  fake.create();
  assert.equal(await cache.authenticate(key), undefined, 'not yet loaded');
  assert.equal(await cache.refresh(), true);
  assert.equal(await cache.authenticate(key), 7);
  assert.deepEqual(cache.quotaKey(7), { id: 7, hash: hashApiKey(key), quota: null });
  fake.revoke();
  assert.equal(await cache.authenticate(key), 7, 'known until the next refresh');
  assert.equal(await cache.refresh(), true);
  assert.equal(await cache.authenticate(key), undefined);
  assert.equal(cache.quotaKey(7), undefined);
  assert.equal(fake.asked.lookups, 0);
});

test('when a cached key is authenticated, then the cache also holds it as the quota counts it, its id and hash, the same object every time', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  fake.create();
  const cache = new KeyCache(fake.store);
  await cache.refresh();
  assert.equal(await cache.authenticate(key), 7);
  const quotaKey = cache.quotaKey(7);
  assert.deepEqual(quotaKey, { id: 7, hash: hashApiKey(key), quota: null });
  assert.equal(cache.quotaKey(7), quotaKey, 'made once per key, not per request');
  assert.equal(cache.quotaKey(8), undefined);
  assert.equal(fake.asked.lookups, 0, 'answered from memory');
});

test("when a key's quota is changed, then the cache holds the new quota from the next refresh on, and back to the default when cleared", async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  fake.create();
  const cache = new KeyCache(fake.store);
  await cache.refresh();
  fake.setQuota(300);
  assert.equal(cache.quotaKey(7)?.quota, null, 'the old quota until the next refresh');
  assert.equal(await cache.refresh(), true);
  assert.deepEqual(cache.quotaKey(7), { id: 7, hash: hashApiKey(key), quota: 300 });
  fake.setQuota(null);
  await cache.refresh();
  assert.equal(cache.quotaKey(7)?.quota, null);
  assert.equal(fake.asked.lookups, 0);
});

test('when the store cannot be reached, then known keys keep working and the list age grows from the last confirmed refresh; the next refresh that succeeds resets it', async () => {
  const key = generateApiKey();
  const fake = storeWith(key);
  fake.create();
  let now = 1_000_000;
  const cache = new KeyCache(fake.store, () => now);
  await cache.refresh();
  now += 500;
  assert.equal(cache.ageSeconds(), 0.5);
  fake.setReachable(false);
  now += 3_000;
  await assert.rejects(cache.refresh());
  assert.equal(cache.ageSeconds(), 3.5);
  assert.equal(await cache.authenticate(key), 7);
  fake.setReachable(true);
  assert.equal(await cache.refresh(), false, 'nothing changed');
  assert.equal(cache.ageSeconds(), 0);
});
