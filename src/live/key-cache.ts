import { hashApiKey } from '../domain/api-keys.js';
import type { KeyStore, QuotaKey } from '../storage/ports.js';

/**
 * Authenticates from memory. The map is rebuilt whenever the key store's version moves (a revoked
 * key stops working at the next refresh); a key created since the last refresh is found by one
 * lookup of its hash, so a fresh key works at once. A presented token is only ever hashed, then
 * looked up by its hash: no secret is compared byte by byte.
 */
export class KeyCache {
  /** Hash → the key as the quota counts it (its id and that hash), made once per key. */
  private byHash = new Map<string, QuotaKey>();
  /** The same keys by id, for quotaKey: a key's id and hash never change, so an entry never goes stale. */
  private byId = new Map<number, QuotaKey>();
  private version = -1;

  constructor(private readonly store: KeyStore) {}

  async refresh(): Promise<boolean> {
    const version = await this.store.version();
    if (version === this.version) return false;
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
    return true;
  }

  /** The key's id, or undefined for an unknown or revoked key. */
  async authenticate(key: string): Promise<number | undefined> {
    const hash = hashApiKey(key);
    const known = this.byHash.get(hash);
    if (known !== undefined) return known.id;
    const version = this.version;
    const found = await this.store.findActive(hash);
    if (found === undefined) return undefined;
    const identified = { id: found, hash };
    // Only a lookup by hash authenticates; by id, the key is only named, so it is always kept.
    this.byId.set(found, identified);
    // Kept only if no refresh came in between: that refresh may have been this key's revocation.
    if (version === this.version) this.byHash.set(hash, identified);
    return found;
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
