import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import pino from 'pino';
import { runClaimedIngestion } from '../../src/ingest/scheduled-ingestion.js';
import { openStores, type StoreConfig } from '../../src/storage/open-stores.js';
import type { OpenedStores } from '../../src/storage/ports.js';
import { freshPgSchema, requireBackend } from '../helpers/backends.js';
import { localFeed } from '../helpers/local-feed.js';
import { tempDir } from '../helpers/temp-dir.js';
import { FIXTURES, ManualClock } from '../helpers/test-server.js';

const log = pino({ level: 'silent' });

/** A local stand-in for the ECB feed that counts how often it was fetched. */
async function countingFeed(t: TestContext): Promise<{ url: string; fetches(): number }> {
  const body = readFileSync(FIXTURES + 'daily.xml');
  const { base, asked } = await localFeed(t, () => ({ body }));
  return { url: `${base}/eurofxref-daily.xml`, fetches: () => asked.length };
}

async function instances(t: TestContext, config: StoreConfig, count: number): Promise<OpenedStores[]> {
  const opened: OpenedStores[] = [];
  for (let i = 0; i < count; i++) opened.push(await openStores(config));
  t.after(() => Promise.all(opened.map((stores) => stores.close())));
  return opened;
}

function scheduledRunsBehave(name: string, storeConfig: (t: TestContext) => Promise<StoreConfig>, skip: string | false = false) {
  describe(name, { skip }, () => {
    test('when three instances wake for the same day, then exactly one fetches and ingests; later that day nobody runs it again', async (t) => {
      const feed = await countingFeed(t);
      const fleet = await instances(t, await storeConfig(t), 3);
      const clock = new ManualClock(Date.UTC(2026, 6, 6, 16, 30));
      const ran = await Promise.all(
        fleet.map((stores, i) =>
          runClaimedIngestion({ rates: stores.rates, jobs: stores.jobs, url: feed.url, log, clock, onLanded: async () => undefined }, `instance-${i}`),
        ),
      );
      assert.equal(ran.filter(Boolean).length, 1, 'one instance ran it');
      assert.equal(feed.fetches(), 1, 'the feed was fetched once');
      assert.equal((await fleet[0]!.rates.rowsSince(0)).rows.length, 6);

      clock.advance(60 * 60_000);
      const again = await runClaimedIngestion({ rates: fleet[1]!.rates, jobs: fleet[1]!.jobs, url: feed.url, log, clock, onLanded: async () => undefined }, 'instance-1');
      assert.equal(again, false);
      assert.equal(feed.fetches(), 1);

      clock.advance(24 * 60 * 60_000);
      const nextDay = await runClaimedIngestion({ rates: fleet[2]!.rates, jobs: fleet[2]!.jobs, url: feed.url, log, clock, onLanded: async () => undefined }, 'instance-2');
      assert.equal(nextDay, true, 'the next day is a new slot');
    });

    test('when the instance that claimed the day crashed before completing, then another takes the slot over once the lease has run out', async (t) => {
      const feed = await countingFeed(t);
      const [stores] = await instances(t, await storeConfig(t), 1);
      const clock = new ManualClock(Date.UTC(2026, 6, 6, 16, 30));
      assert.equal(await stores!.jobs.claim('ingest:2026-07-06', 'crashed-instance', clock.now(), 10 * 60_000), true);
      const deps = { rates: stores!.rates, jobs: stores!.jobs, url: feed.url, log, clock, onLanded: async () => undefined };
      assert.equal(await runClaimedIngestion(deps, 'survivor'), false, 'the lease still holds');
      clock.advance(10 * 60_000);
      assert.equal(await runClaimedIngestion(deps, 'survivor'), true, 'taken over after the lease');
      assert.equal(feed.fetches(), 1);
    });
  });
}

scheduledRunsBehave('on one SQLite file', async (t) => ({ databaseUrl: `sqlite:${join(tempDir(t), 'jobs.db')}` }));
const pgMissing = await requireBackend('PostgreSQL');
scheduledRunsBehave('on PostgreSQL', async (t) => ({ databaseUrl: (await freshPgSchema(t)).url }), pgMissing);
