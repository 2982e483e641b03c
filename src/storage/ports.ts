import type { ApiKeyRecord } from '../domain/api-keys.js';
import type { QuotaDecision, QuotaPolicy } from '../domain/quota.js';
import type { RateRow } from '../domain/snapshot.js';

/** What one ingestion run did to the store. */
export interface MergeReport {
  days: number;
  rates: number;
  /** Values for a (day, currency) the store did not hold. */
  added: number;
  /** Values that replaced a different stored value (ECB corrections). */
  changed: number;
  /** The store's rates version after the run (unchanged when nothing was written). */
  version: number;
}

export interface RatesStore {
  /**
   * Merges the rows value by value in one atomic step: all land or none. Rows equal to the
   * stored value change nothing; a run that changes nothing leaves the version alone.
   */
  merge(rows: readonly RateRow[]): Promise<MergeReport>;
  /** A number that grows with every merge that changed something; cheap enough to poll. */
  version(): Promise<number>;
  /** Every row written by merges after `version` (0: everything), and the version they bring. */
  rowsSince(version: number): Promise<{ rows: RateRow[]; version: number }>;
}

export interface KeyStore {
  create(name: string | null, keyHash: string, now: Date): Promise<ApiKeyRecord>;
  list(): Promise<ApiKeyRecord[]>;
  /** False when no such key exists or it was already revoked. */
  revoke(id: number, now: Date): Promise<boolean>;
  /** The id of the unrevoked key with this hash. */
  findActive(keyHash: string): Promise<number | undefined>;
  /** Hash → id of every unrevoked key. */
  activeKeys(): Promise<Map<string, number>>;
  /** Grows with every create and revoke; cheap enough to poll. */
  version(): Promise<number>;
}

export interface QuotaStore {
  /** Counts one request atomically, or refuses it when the period's quota is used up. */
  consume(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision>;
  /** The current counter of a key, for operators and tests. */
  usage(keyId: number): Promise<{ used: number; periodStart: number } | undefined>;
}

export interface Stores {
  rates: RatesStore;
  keys: KeyStore;
  quota: QuotaStore;
  close(): Promise<void>;
}

/** Stores as opened: the schema is up to date, and these migrations were applied on the way. */
export interface OpenedStores extends Stores {
  appliedMigrations: string[];
}
