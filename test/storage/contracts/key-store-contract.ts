import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { KeyStore } from '../../../src/storage/ports.js';

export interface KeysFixture {
  keys: KeyStore;
  close(): Promise<void>;
}

const hash = (n: number) => n.toString(16).padStart(64, '0');
const T0 = new Date(Date.UTC(2026, 10, 21, 8, 30, 15, 123));
const T1 = new Date(T0.getTime() + 60_000);

/** The KeyStore port's behaviour, run against every adapter. `open` gives a fresh, empty store. */
export function keyStoreContract(name: string, open: (t: TestContext) => Promise<KeysFixture>): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture.keys;
    };

    test('when the store is new, then it holds no keys and its version is 0', async (t) => {
      const keys = await setup(t);
      assert.deepEqual(await keys.list(), []);
      assert.deepEqual(await keys.activeKeys(), new Map());
      assert.equal(await keys.findActive(hash(1)), undefined);
      assert.equal(await keys.version(), 0);
    });

    test('when keys are created, then they are listed in creation order with their names and times', async (t) => {
      const keys = await setup(t);
      const first = await keys.create('ops', hash(1), T0);
      const second = await keys.create(null, hash(2), T1);
      assert.deepEqual(first, { id: first.id, name: 'ops', createdAt: T0, revokedAt: null, quota: null });
      assert.deepEqual(second, { id: second.id, name: null, createdAt: T1, revokedAt: null, quota: null });
      assert.ok(Number.isSafeInteger(first.id) && second.id > first.id);
      assert.deepEqual(await keys.list(), [first, second]);
      assert.equal(await keys.version(), 2);
    });

    test('when a key is created, then it is found by its hash and among the active keys', async (t) => {
      const keys = await setup(t);
      const first = await keys.create('a', hash(1), T0);
      const second = await keys.create('b', hash(2), T0);
      assert.equal(await keys.findActive(hash(1)), first.id);
      assert.equal(await keys.findActive(hash(2)), second.id);
      assert.equal(await keys.findActive(hash(3)), undefined);
      assert.deepEqual(await keys.activeKeys(), new Map([[hash(1), { id: first.id, quota: null }], [hash(2), { id: second.id, quota: null }]]));
    });

    test('when a key is revoked, then it is no longer active, is listed as revoked, and the version moves', async (t) => {
      const keys = await setup(t);
      const first = await keys.create('a', hash(1), T0);
      const second = await keys.create('b', hash(2), T0);
      assert.equal(await keys.revoke(first.id, T1), true);
      assert.equal(await keys.version(), 3);
      assert.equal(await keys.findActive(hash(1)), undefined);
      assert.deepEqual(await keys.activeKeys(), new Map([[hash(2), { id: second.id, quota: null }]]));
      assert.deepEqual(await keys.list(), [{ ...first, revokedAt: T1 }, second]);
    });

    test('when a revoked or unknown key is revoked, then the answer is false and the version stays', async (t) => {
      const keys = await setup(t);
      const key = await keys.create('a', hash(1), T0);
      await keys.revoke(key.id, T1);
      assert.equal(await keys.revoke(key.id, new Date(T1.getTime() + 1)), false);
      assert.equal(await keys.revoke(key.id + 1000, T1), false);
      assert.equal(await keys.version(), 2);
      assert.deepEqual((await keys.list())[0]?.revokedAt, T1);
    });

    test('when a hash is created twice, then the second create fails and changes nothing', async (t) => {
      const keys = await setup(t);
      const key = await keys.create('a', hash(1), T0);
      await assert.rejects(keys.create('b', hash(1), T1));
      assert.deepEqual(await keys.list(), [key]);
      assert.equal(await keys.version(), 1);
    });

    test('when a key is created with its own quota, then it is listed and active with it', async (t) => {
      const keys = await setup(t);
      const own = await keys.create('plan', hash(1), T0, 7);
      const plain = await keys.create('default', hash(2), T0, null);
      assert.deepEqual(own, { id: own.id, name: 'plan', createdAt: T0, revokedAt: null, quota: 7 });
      assert.deepEqual(await keys.list(), [own, plain]);
      assert.deepEqual(await keys.activeKeys(), new Map([[hash(1), { id: own.id, quota: 7 }], [hash(2), { id: plain.id, quota: null }]]));
    });

    test("when an active key's quota is set and cleared, then it is listed and active with it, and the version moves each time", async (t) => {
      const keys = await setup(t);
      const key = await keys.create('a', hash(1), T0);
      assert.equal(await keys.setQuota(key.id, 300), true);
      assert.equal(await keys.version(), 2);
      assert.deepEqual(await keys.list(), [{ ...key, quota: 300 }]);
      assert.deepEqual(await keys.activeKeys(), new Map([[hash(1), { id: key.id, quota: 300 }]]));
      assert.equal(await keys.setQuota(key.id, null), true);
      assert.equal(await keys.version(), 3);
      assert.deepEqual(await keys.list(), [key]);
    });

    test('when the quota of a revoked or unknown key is set, then the answer is false and nothing changes', async (t) => {
      const keys = await setup(t);
      const key = await keys.create('a', hash(1), T0, 5);
      await keys.revoke(key.id, T1);
      assert.equal(await keys.setQuota(key.id, 9), false);
      assert.equal(await keys.setQuota(key.id + 1000, 9), false);
      assert.equal(await keys.version(), 2);
      assert.deepEqual(await keys.list(), [{ ...key, revokedAt: T1 }]);
    });

    test('when keys are created at once, then each gets its own id and the version counts them all', async (t) => {
      const keys = await setup(t);
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => keys.create(`k${i}`, hash(i + 1), T0)));
      assert.equal(new Set(created.map((key) => key.id)).size, 20);
      assert.equal(await keys.version(), 20);
      assert.equal((await keys.activeKeys()).size, 20);
    });
  });
}
