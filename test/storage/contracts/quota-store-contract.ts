import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { QuotaDecision, QuotaPolicy } from '../../../src/domain/quota.js';
import type { QuotaKey, QuotaStore } from '../../../src/storage/ports.js';
import { randomKeyHash } from '../quota-keys.js';

export interface QuotaFixture {
  quota: QuotaStore;
  /** A key the store accepts (SQL stores count only existing keys), its id and hash; a new one each call. */
  newKey(): Promise<QuotaKey>;
  close(): Promise<void>;
}

const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const DAY = 86_400_000;
const MONTH: QuotaPolicy = { limit: 1000, periodMs: 30 * DAY };

function allowedUsed(decisions: QuotaDecision[]): number[] {
  return decisions.filter((d) => d.allowed).map((d) => d.used).sort((a, b) => a - b);
}
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * The QuotaStore port's behaviour (DECISIONS §4), run against every adapter. `arrivalOrder`: the
 * adapter decides the requests of one burst in the order they were made, as the group-committing
 * stores do within one process; requests spread over two processes have no set order.
 */
/**
 * `countsByHash`: the adapter is shared beyond one database (Redis), where two deployments' keys
 * may have the same id; it must count by the key's hash.
 */
export function quotaStoreContract(
  name: string,
  open: (t: TestContext) => Promise<QuotaFixture>,
  { arrivalOrder = false, countsByHash = false } = {},
): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture;
    };

    test('when a key makes its first request, then a period starts then with the request counted', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      assert.equal(await quota.usage(key), undefined);
      assert.deepEqual(await quota.consume(key, NOW, MONTH), { allowed: true, used: 1, periodStart: NOW });
      assert.deepEqual(await quota.usage(key), { used: 1, periodStart: NOW });
    });

    test('when requests follow within the period, then each is counted against the same period start', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      await quota.consume(key, NOW, MONTH);
      assert.deepEqual(await quota.consume(key, NOW + 1, MONTH), { allowed: true, used: 2, periodStart: NOW });
      assert.deepEqual(await quota.consume(key, NOW + 29 * DAY, MONTH), { allowed: true, used: 3, periodStart: NOW });
      assert.deepEqual(await quota.usage(key), { used: 3, periodStart: NOW });
    });

    test('when the limit is reached, then requests are refused, and refused requests are not counted', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 3, periodMs: DAY };
      for (let i = 1; i <= 3; i++) assert.deepEqual(await quota.consume(key, NOW + i, policy), { allowed: true, used: i, periodStart: NOW + 1 });
      for (let i = 0; i < 5; i++) assert.deepEqual(await quota.consume(key, NOW + 100, policy), { allowed: false, used: 3, periodStart: NOW + 1 });
      assert.deepEqual(await quota.usage(key), { used: 3, periodStart: NOW + 1 });
    });

    test('when now reaches periodStart + periodMs, then a new period starts; one ms before, it does not', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 2, periodMs: DAY };
      await quota.consume(key, NOW, policy);
      await quota.consume(key, NOW, policy);
      assert.deepEqual(await quota.consume(key, NOW + DAY - 1, policy), { allowed: false, used: 2, periodStart: NOW });
      assert.deepEqual(await quota.consume(key, NOW + DAY, policy), { allowed: true, used: 1, periodStart: NOW + DAY });
      assert.deepEqual(await quota.usage(key), { used: 1, periodStart: NOW + DAY });
    });

    test('when a period ends unused up, then the next request starts a new period at its own time', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 5, periodMs: DAY };
      await quota.consume(key, NOW, policy);
      await quota.consume(key, NOW + 10, policy);
      const later = NOW + 3 * DAY + 12_345;
      assert.deepEqual(await quota.consume(key, later, policy), { allowed: true, used: 1, periodStart: later });
      assert.deepEqual(await quota.consume(key, later + DAY - 1, policy), { allowed: true, used: 2, periodStart: later });
    });

    test('when two keys make requests, then each has its own counter and period', async (t) => {
      const { quota, newKey } = await setup(t);
      const [a, b] = [await newKey(), await newKey()];
      const policy = { limit: 2, periodMs: DAY };
      await quota.consume(a, NOW, policy);
      await quota.consume(a, NOW, policy);
      assert.equal((await quota.consume(a, NOW, policy)).allowed, false);
      assert.deepEqual(await quota.consume(b, NOW + 5, policy), { allowed: true, used: 1, periodStart: NOW + 5 });
      assert.deepEqual(await quota.usage(a), { used: 2, periodStart: NOW });
      assert.deepEqual(await quota.usage(b), { used: 1, periodStart: NOW + 5 });
    });

    if (countsByHash) test('when two keys have the same id but different hashes (two databases on one store), then they count apart', async (t) => {
      const { quota, newKey } = await setup(t);
      const a = await newKey();
      const b: QuotaKey = { id: a.id, hash: randomKeyHash() };
      const policy = { limit: 2, periodMs: DAY };
      await quota.consume(a, NOW, policy);
      await quota.consume(a, NOW, policy);
      assert.equal((await quota.consume(a, NOW, policy)).allowed, false);
      assert.deepEqual(await quota.consume(b, NOW + 5, policy), { allowed: true, used: 1, periodStart: NOW + 5 }, "b is not charged with a's count");
      assert.deepEqual(await quota.consume(b, NOW + 6, policy), { allowed: true, used: 2, periodStart: NOW + 5 });
      assert.equal((await quota.consume(b, NOW + 7, policy)).allowed, false);
      assert.deepEqual(await quota.usage(a), { used: 2, periodStart: NOW });
      assert.deepEqual(await quota.usage(b), { used: 2, periodStart: NOW + 5 });
    });

    test('when 200 requests arrive at once with a limit of 150, then exactly 150 are counted, as 1..150', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 150, periodMs: DAY };
      const decisions = await Promise.all(Array.from({ length: 200 }, () => quota.consume(key, NOW, policy)));
      assert.deepEqual(allowedUsed(decisions), oneTo(150));
      for (const refused of decisions.filter((d) => !d.allowed)) assert.deepEqual(refused, { allowed: false, used: 150, periodStart: NOW });
      assert.deepEqual(await quota.usage(key), { used: 150, periodStart: NOW });
    });

    test('when two keys with quotas 7 and 300 race with 400 requests each, interleaved, then exactly 7 and 300 are counted, as 1..7 and 1..300', async (t) => {
      const { quota, newKey } = await setup(t);
      const [small, large] = [await newKey(), await newKey()];
      const limits = [{ limit: 7, periodMs: DAY }, { limit: 300, periodMs: DAY }] as const;
      const pending: Promise<QuotaDecision>[][] = [[], []];
      for (let i = 0; i < 400; i++) {
        pending[0]!.push(quota.consume(small, NOW, limits[0]));
        pending[1]!.push(quota.consume(large, NOW, limits[1]));
      }
      const [a, b] = [await Promise.all(pending[0]!), await Promise.all(pending[1]!)];
      assert.deepEqual(allowedUsed(a), oneTo(7));
      assert.deepEqual(allowedUsed(b), oneTo(300));
      assert.deepEqual(await quota.usage(small), { used: 7, periodStart: NOW });
      assert.deepEqual(await quota.usage(large), { used: 300, periodStart: NOW });
    });

    test("when a key's limit changes within a period, then the period and count stay and the new limit decides", async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      for (let i = 0; i < 5; i++) await quota.consume(key, NOW, { limit: 10, periodMs: DAY });
      // Lowered below the count: refused, nothing counted, same period.
      assert.deepEqual(await quota.consume(key, NOW + 1, { limit: 3, periodMs: DAY }), { allowed: false, used: 5, periodStart: NOW });
      // Raised: counted on from where the period stood.
      assert.deepEqual(await quota.consume(key, NOW + 2, { limit: 6, periodMs: DAY }), { allowed: true, used: 6, periodStart: NOW });
      assert.deepEqual(await quota.consume(key, NOW + 3, { limit: 6, periodMs: DAY }), { allowed: false, used: 6, periodStart: NOW });
      assert.deepEqual(await quota.usage(key), { used: 6, periodStart: NOW });
    });

    test('when many requests arrive at once just after a period ended, then exactly one new period starts', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 40, periodMs: DAY };
      await quota.consume(key, NOW, policy);
      const next = NOW + DAY + 7;
      const decisions = await Promise.all(Array.from({ length: 60 }, () => quota.consume(key, next, policy)));
      assert.deepEqual(allowedUsed(decisions), oneTo(40));
      assert.ok(decisions.every((d) => d.periodStart === next));
      assert.deepEqual(await quota.usage(key), { used: 40, periodStart: next });
    });

    if (arrivalOrder) test('when one burst mixes keys, times (across a period end) and limits, then every request gets what it would get alone, in arrival order', async (t) => {
      const { quota, newKey } = await setup(t);
      const small = { limit: 3, periodMs: DAY };
      // [which key, ms after NOW, policy]; times never go back for a key, as a clock's do not.
      const burst: [number, number, QuotaPolicy][] = [
        [0, 0, small], [1, 0, MONTH], [0, 0, small], [0, 5, small], [1, 0, MONTH], [0, 5, small], [0, 5, small],
        [1, DAY, MONTH], [0, DAY, small], [0, DAY, small], [1, DAY, MONTH], [0, DAY + 1, small], [0, DAY + 1, small],
      ];
      const together = [await newKey(), await newKey()];
      const alone = [await newKey(), await newKey()];
      await quota.consume(together[1]!, NOW - 10, MONTH);
      await quota.consume(alone[1]!, NOW - 10, MONTH);
      const decided = await Promise.all(burst.map(([k, at, policy]) => quota.consume(together[k]!, NOW + at, policy)));
      const expected: QuotaDecision[] = [];
      for (const [k, at, policy] of burst) expected.push(await quota.consume(alone[k]!, NOW + at, policy));
      assert.deepEqual(decided, expected);
      assert.deepEqual(await quota.usage(together[0]!), await quota.usage(alone[0]!));
      assert.deepEqual(await quota.usage(together[1]!), await quota.usage(alone[1]!));
      // And the expected values themselves, so a store wrong in both ways cannot pass.
      assert.deepEqual(
        expected.map((d) => [d.allowed, d.used, d.periodStart - NOW]),
        [
          [true, 1, 0], [true, 2, -10], [true, 2, 0], [true, 3, 0], [true, 3, -10], [false, 3, 0], [false, 3, 0],
          [true, 4, -10], [true, 1, DAY], [true, 2, DAY], [true, 5, -10], [true, 3, DAY], [false, 3, DAY],
        ],
      );
    });

    if (arrivalOrder) test('when requests keep arriving over many turns while earlier ones are decided, then each gets what it would get alone, in arrival order', async (t) => {
      const { quota, newKey } = await setup(t);
      const policy = { limit: 25, periodMs: 1_000 };
      // 120 requests over 30 turns of the event loop, four a turn at two times, across two period ends.
      const times = Array.from({ length: 120 }, (_, i) => NOW + Math.floor(i / 2) * 37);
      const together = await newKey();
      const pending: Promise<QuotaDecision>[] = [];
      for (let i = 0; i < times.length; i++) {
        if (i > 0 && i % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
        pending.push(quota.consume(together, times[i]!, policy));
      }
      const decided = await Promise.all(pending);
      const alone = await newKey();
      const expected: QuotaDecision[] = [];
      for (const at of times) expected.push(await quota.consume(alone, at, policy));
      assert.deepEqual(decided, expected);
      assert.deepEqual(await quota.usage(together), await quota.usage(alone));
      // Periods start at NOW, then at the first time at or after each end (times 37 ms apart, two requests each):
      // 25 counted in each of the first two, and the 8 requests of the last period's 4 times.
      assert.deepEqual([...new Set(expected.map((d) => d.periodStart - NOW))], [0, 1036, 2072]);
      assert.equal(expected.filter((d) => d.allowed).length, 25 + 25 + 8);
    });

    test('when a new key sends concurrent first requests with a limit of 1, then one is counted and the rest see it', async (t) => {
      const { quota, newKey } = await setup(t);
      const key = await newKey();
      const policy = { limit: 1, periodMs: DAY };
      const decisions = await Promise.all(Array.from({ length: 30 }, () => quota.consume(key, NOW, policy)));
      assert.deepEqual(allowedUsed(decisions), [1]);
      for (const refused of decisions.filter((d) => !d.allowed)) assert.deepEqual(refused, { allowed: false, used: 1, periodStart: NOW });
    });
  });
}
