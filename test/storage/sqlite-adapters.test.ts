import { join } from 'node:path';
import { describe, type TestContext } from 'node:test';
import type { OpenedStores } from '../../src/storage/ports.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { jobClaimsContract } from './contracts/job-claims-contract.js';
import { keyStoreContract } from './contracts/key-store-contract.js';
import { quotaStoreContract, type QuotaFixture } from './contracts/quota-store-contract.js';
import { ratesStoreContract } from './contracts/rates-store-contract.js';
import { tempDir } from '../helpers/temp-dir.js';
import { randomKeyHash } from './quota-keys.js';

/** A fresh in-memory database per test: the same adapters and schema as a file, nothing to clean up. */
async function open(_t: TestContext) {
  return openSqliteStores(':memory:');
}

function quotaFixture(stores: OpenedStores): QuotaFixture {
  return {
    quota: stores.quota,
    // quota_usage.key_id references api_keys: count against real keys.
    newKey: async () => {
      const hash = randomKeyHash();
      return { id: (await stores.keys.create(null, hash, new Date())).id, hash };
    },
    close: () => stores.close(),
  };
}

describe('SQLite adapters', () => {
  ratesStoreContract('rates store', open);
  keyStoreContract('key store', open);
  quotaStoreContract('quota store', async (t) => quotaFixture(await open(t)), { arrivalOrder: true });
  jobClaimsContract('job claims', open);
  // On a file the quota store has a connection of its own (open-sqlite-stores.ts).
  quotaStoreContract('quota store, on a file', async (t) => quotaFixture(openSqliteStores(join(tempDir(t), 'quota.db'))), { arrivalOrder: true });
});
