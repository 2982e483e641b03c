import { hashApiKey } from '../domain/api-keys.js';
import type { KeyStore } from '../storage/ports.js';

/**
 * Authenticates from memory. The map is rebuilt whenever the key store's version moves (a revoked
 * key stops working at the next refresh); a key created since the last refresh is found by one
 * lookup of its hash, so a fresh key works at once. A presented token is only ever hashed, then
 * looked up by its hash: no secret is compared byte by byte.
 */
export class KeyCache {
  private byHash = new Map<string, number>();
  private version = -1;

  constructor(private readonly store: KeyStore) {}

  async refresh(): Promise<boolean> {
    const version = await this.store.version();
    if (version === this.version) return false;
    this.byHash = await this.store.activeKeys();
    this.version = version;
    return true;
  }

  /** The key's id, or undefined for an unknown or revoked key. */
  async authenticate(key: string): Promise<number | undefined> {
    const hash = hashApiKey(key);
    const known = this.byHash.get(hash);
    if (known !== undefined) return known;
    const version = this.version;
    const found = await this.store.findActive(hash);
    // Kept only if no refresh came in between: that refresh may have been this key's revocation.
    if (found !== undefined && version === this.version) this.byHash.set(hash, found);
    return found;
  }
}
