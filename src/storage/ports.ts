import type { ActiveKey, ApiKeyRecord } from '../domain/api-keys.js';
import type { QuotaDecision, QuotaPolicy } from '../domain/quota.js';
import type { EncodedSourceDay, SourceValue, SourceValueRow } from '../domain/source-values.js';

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

/**
 * The values of every rate source, the ECB among them, each in its source's own terms (DECISIONS
 * §9): merged value by value, all or nothing; a value a run omits stays as it was.
 */
export interface RatesStore {
  /**
   * Merges one source's values in one atomic step: all land or none. Values equal to the stored
   * one change nothing; a run that changes nothing leaves the version alone. Other sources'
   * values are never touched.
   */
  merge(source: string, values: readonly SourceValue[]): Promise<MergeReport>;
  /** A number that grows with every merge that changed something; cheap enough to poll. */
  version(): Promise<number>;
  /** Every value written by merges after `version` (0: everything), and the version they bring. */
  rowsSince(version: number): Promise<{ rows: SourceValueRow[]; version: number }>;
  /**
   * Every (source, day) touched by merges after `version` (0: every one), each whole (all its
   * stored values, as one string: day-encoding.ts), and the version they bring: what a server
   * loads at start and on refresh.
   */
  daysSince(version: number): Promise<{ days: EncodedSourceDay[]; version: number }>;
  /** The newest day stored of `source`, or null when none is: where a scheduled run starts back-filling. */
  lastDay(source: string): Promise<string | null>;
}

export interface KeyStore {
  /** `quota`: the key's own requests per period; null (the default) for the configured QUOTA_LIMIT. */
  create(name: string | null, keyHash: string, now: Date, quota?: number | null): Promise<ApiKeyRecord>;
  list(): Promise<ApiKeyRecord[]>;
  /** False when no such key exists or it was already revoked. */
  revoke(id: number, now: Date): Promise<boolean>;
  /** Sets an unrevoked key's own quota (null: back to QUOTA_LIMIT); false when no such key is active. */
  setQuota(id: number, quota: number | null): Promise<boolean>;
  /** The id of the unrevoked key with this hash. */
  findActive(keyHash: string): Promise<number | undefined>;
  /** Hash → id and own quota of every unrevoked key. */
  activeKeys(): Promise<Map<string, ActiveKey>>;
  /** Grows with every create, revoke and quota change; cheap enough to poll. */
  version(): Promise<number>;
}

/**
 * The key a quota store counts for. `id` is unique only within its database (a fresh or restored
 * database hands out the same ids again); `hash` (the SHA-256 of the key, hashApiKey's, as the
 * key store holds it) is unique everywhere, keys being 256 random bits. A store that counts in
 * the key's own database may count by id; a store shared beyond one database (Redis) counts by
 * hash, so two deployments never share a key's count.
 */
export interface QuotaKey {
  readonly id: number;
  readonly hash: string;
}

export interface QuotaStore {
  /** Counts one request atomically, or refuses it when the period's quota is used up. */
  consume(key: QuotaKey, now: number, policy: QuotaPolicy): Promise<QuotaDecision>;
  /**
   * The current counter of a key, for operators and tests. A bare id is looked up among the
   * unrevoked keys where the store needs the hash (Redis): a revoked key's counter is then not
   * found by its id.
   */
  usage(key: QuotaKey | number): Promise<{ used: number; periodStart: number } | undefined>;
}

/**
 * Claims on scheduled jobs, so that of many instances exactly one runs each scheduled
 * ingestion. A claim is a lease: if its holder dies before completing, another instance may take
 * the same slot over once the lease has run out, so a crash never blocks a run.
 */
export interface JobClaims {
  /** True when this caller now holds `slot` (e.g. "ingest:ecb:2026-11-21"). */
  claim(slot: string, holder: string, now: number, leaseMs: number): Promise<boolean>;
  /** Marks the slot done; nobody claims it again. */
  complete(slot: string, holder: string, now: number): Promise<void>;
}

export interface Stores {
  rates: RatesStore;
  keys: KeyStore;
  quota: QuotaStore;
  jobs: JobClaims;
  /** Resolves when every backend answers; rejects with the first failure. For /ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A backend could not be reached or failed mid-request. The HTTP layer answers 503 and never a
 * guess; adapters wrap driver errors in it at their boundary.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(
    readonly backend: string,
    options?: { cause?: unknown },
  ) {
    super(`${backend} is unavailable`, options);
  }
}

/** Stores as opened: the schema is up to date, and these migrations were applied on the way. */
export interface OpenedStores extends Stores {
  appliedMigrations: string[];
}

/**
 * What the stores tell the server about their backends as it runs, so that an outage is logged
 * once when it starts and once when it ends, never once per failing call.
 */
export interface BackendEvents {
  /**
   * `operation` (e.g. "quota.consume", "keys.version", "connection") could not reach the backend
   * `err.backend` names.
   */
  unavailable(err: StoreUnavailableError, operation: string): void;
  /** `operation` of `backend` succeeded. */
  available(backend: string, operation: string): void;
  /** How a backend is set up puts data at risk (e.g. a Redis that persists nothing). */
  warning(message: string): void;
}

/** Stores as a server opens them: also says whether the quota store answers, for /ready. */
export interface ServingStores extends OpenedStores {
  /** Resolves when the quota store (Redis, else the database) answers; rejects with StoreUnavailableError. */
  pingQuota(): Promise<void>;
}
