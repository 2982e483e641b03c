import { hashApiKey } from '../domain/api-keys.js';
import type { KeyStore, QuotaKey } from '../storage/ports.js';

/**
 * Authenticates from memory only. The map is rebuilt whenever the key store's version moves,
 * which the refresher asks every REFRESH_INTERVAL_MS: a key created or revoked anywhere works, or
 * stops working, at the next refresh. A key the map does not hold is refused without asking the
 * store, so unknown or malformed keys cost the database nothing, and keys known before keep
 * working while it is unreachable. A presented token is only ever hashed, then looked up by its
 * hash: no secret is compared byte by byte.
 */
export class KeyCache {
  /** Hash → the key as the quota counts it (its id and that hash), made once per key. */
  private byHash = new Map<string, QuotaKey>();
  /** The same keys by id, for quotaKey. */
  private byId = new Map<number, QuotaKey>();
  private version = -1;
  /** When the map was last confirmed to be the store's current list (ms since the epoch; 0: never). */
  private confirmed = 0;

  constructor(
    private readonly store: KeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  async refresh(): Promise<boolean> {
    // Taken before asking: a list confirmed by this answer was current at least from then.
    const asked = this.now();
    const version = await this.store.version();
    if (version === this.version) {
      this.confirmed = asked;
      return false;
    }
    const byHash = new Map<string, QuotaKey>();
    const byId = new Map<number, QuotaKey>();
    for (const [hash, id] of await this.store.activeKeys()) {
      const key = { id, hash };
      byHash.set(hash, key);
      byId.set(id, key);
    }
    this.byHash = byHash;
    this.byId = byId;
    this.version = version;
    this.confirmed = asked;
    return true;
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
   * The key with this id as the quota store counts it (its id and the hash authenticate made), for
   * a key authenticate has just answered: no second hashing. Undefined only if a refresh in
   * between dropped the key (revoked meanwhile).
   */
  quotaKey(id: number): QuotaKey | undefined {
    return this.byId.get(id);
  }
}
