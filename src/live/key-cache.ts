import { hashApiKey } from '../domain/api-keys.js';
import type { KeyStore, QuotaKey } from '../storage/ports.js';

/** A key as a server holds it: what the quota store counts it by, and its own quota (null: QUOTA_LIMIT). */
export interface KnownKey extends QuotaKey {
  readonly quota: number | null;
}

/**
 * Authenticates from memory only. The map is rebuilt whenever the key store's version moves,
 * which the refresher asks every REFRESH_INTERVAL_MS: a key created or revoked anywhere works, or
 * stops working, at the next refresh, and a changed quota applies from then. A key the map does not hold is refused without asking the
 * store, so unknown or malformed keys cost the database nothing, and keys known before keep
 * working while it is unreachable. A presented token is only ever hashed, then looked up by its
 * hash: no secret is compared byte by byte.
 */
export class KeyCache {
  /** Hash → the key as the quota counts it (its id, that hash, its own quota), made once per key. */
  private byHash = new Map<string, KnownKey>();
  /** The same keys by id, for quotaKey. */
  private byId = new Map<number, KnownKey>();
  private version = -1;
  /** When the map was last confirmed to be the store's current list (ms since the epoch; 0: never). */
  private confirmed = 0;
  /** The one active key named `compatName`, when exactly one is. */
  private named: KnownKey | undefined;

  constructor(
    private readonly store: KeyStore,
    private readonly now: () => number = Date.now,
    /** COMPAT_KEY (DECISIONS §16): the name of the key keyless Frankfurter requests are charged to. */
    private readonly compatName?: string,
  ) {}

  async refresh(): Promise<boolean> {
    // Taken before asking: a list confirmed by this answer was current at least from then.
    const asked = this.now();
    const version = await this.store.version();
    if (version === this.version) {
      this.confirmed = asked;
      return false;
    }
    const byHash = new Map<string, KnownKey>();
    const byId = new Map<number, KnownKey>();
    for (const [hash, { id, quota }] of await this.store.activeKeys()) {
      const key = { id, hash, quota };
      byHash.set(hash, key);
      byId.set(id, key);
    }
    // Found before anything is replaced, so the keys and COMPAT_KEY's key change together.
    const named = this.compatName === undefined ? undefined : await this.onlyActiveNamed(this.compatName, byId);
    this.byHash = byHash;
    this.byId = byId;
    this.named = named;
    this.version = version;
    this.confirmed = asked;
    return true;
  }

  /** Names are not unique: the name stands for a key only while exactly one active key bears it. */
  private async onlyActiveNamed(name: string, active: ReadonlyMap<number, KnownKey>): Promise<KnownKey | undefined> {
    const bearers = (await this.store.list()).filter((record) => record.name === name && active.has(record.id));
    return bearers.length === 1 ? active.get(bearers[0]!.id) : undefined;
  }

  /** COMPAT_KEY's key, from memory; undefined when unset, or when no single active key bears the name. */
  compatKey(): KnownKey | undefined {
    return this.named;
  }

  /** Seconds since the key list was last confirmed current (Infinity before the first refresh). */
  ageSeconds(now: number = this.now()): number {
    return this.confirmed === 0 ? Infinity : Math.max(0, now - this.confirmed) / 1000;
  }

  /** The key's id, or undefined for an unknown or revoked key: from memory, never a query. */
  async authenticate(key: string): Promise<number | undefined> {
    const hash = hashApiKey(key);
    return this.byHash.get(hash)?.id;
  }

  /**
   * The key with this id as the quota store counts it (its id and the hash authenticate made) and
   * its own quota, for a key authenticate has just answered: no second hashing. Undefined only if a
   * refresh in between dropped the key (revoked meanwhile).
   */
  quotaKey(id: number): KnownKey | undefined {
    return this.byId.get(id);
  }
}
