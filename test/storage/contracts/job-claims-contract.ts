import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { JobClaims } from '../../../src/storage/ports.js';

export interface JobsFixture {
  jobs: JobClaims;
  close(): Promise<void>;
}

const NOW = Date.UTC(2026, 10, 21, 16, 0, 0);
const LEASE = 10 * 60_000;
const SLOT = 'ingest:2026-11-21';

/** The JobClaims port's behaviour, run against every adapter. `open` gives a fresh, empty store. */
export function jobClaimsContract(name: string, open: (t: TestContext) => Promise<JobsFixture>): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture.jobs;
    };

    test('when a slot is claimed first, then the claim wins, and a second claimant loses', async (t) => {
      const jobs = await setup(t);
      assert.equal(await jobs.claim(SLOT, 'a', NOW, LEASE), true);
      assert.equal(await jobs.claim(SLOT, 'b', NOW + 1, LEASE), false);
      // The holder itself does not renew a running lease by claiming again.
      assert.equal(await jobs.claim(SLOT, 'a', NOW + 2, LEASE), false);
    });

    test('when a slot was completed, then nobody claims it again, even long after the lease', async (t) => {
      const jobs = await setup(t);
      await jobs.claim(SLOT, 'a', NOW, LEASE);
      await jobs.complete(SLOT, 'a', NOW + 1_000);
      assert.equal(await jobs.claim(SLOT, 'b', NOW + LEASE, LEASE), false);
      assert.equal(await jobs.claim(SLOT, 'a', NOW + 100 * LEASE, LEASE), false);
    });

    test('when a lease ran out without completion, then another instance takes the slot over; one ms before, it cannot', async (t) => {
      const jobs = await setup(t);
      await jobs.claim(SLOT, 'a', NOW, LEASE);
      assert.equal(await jobs.claim(SLOT, 'b', NOW + LEASE - 1, LEASE), false);
      assert.equal(await jobs.claim(SLOT, 'b', NOW + LEASE, LEASE), true);
      // b now holds a fresh lease: a (back from the dead) cannot take it back before it runs out.
      assert.equal(await jobs.claim(SLOT, 'a', NOW + LEASE + 1, LEASE), false);
      // a's late completion is not b's: the slot is still open, so when b's lease runs out, c wins.
      await jobs.complete(SLOT, 'a', NOW + LEASE + 2);
      assert.equal(await jobs.claim(SLOT, 'c', NOW + 2 * LEASE, LEASE), true);
    });

    test('when b completes the slot it took over, then it stays done', async (t) => {
      const jobs = await setup(t);
      await jobs.claim(SLOT, 'a', NOW, LEASE);
      await jobs.claim(SLOT, 'b', NOW + LEASE, LEASE);
      await jobs.complete(SLOT, 'b', NOW + LEASE + 5);
      assert.equal(await jobs.claim(SLOT, 'c', NOW + 10 * LEASE, LEASE), false);
    });

    test('when another slot is claimed, then it is independent of the first', async (t) => {
      const jobs = await setup(t);
      await jobs.claim(SLOT, 'a', NOW, LEASE);
      await jobs.complete(SLOT, 'a', NOW + 1);
      assert.equal(await jobs.claim('ingest:2026-11-22', 'b', NOW + 2, LEASE), true);
      assert.equal(await jobs.claim('ingest:2026-11-23', 'c', NOW + 2, LEASE), true);
    });

    test('when many instances claim one slot at once, then exactly one wins', async (t) => {
      const jobs = await setup(t);
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => jobs.claim(SLOT, `holder-${i}`, NOW, LEASE)));
      assert.equal(wins.filter(Boolean).length, 1);
    });
  });
}
