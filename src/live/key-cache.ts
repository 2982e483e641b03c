import { hashApiKey } from '../domain/api-keys.js';
import type { KeyStore } from '../storage/ports.js';

/**
 * Authenticates from memory. The map is rebuilt whenever the key store's version moves (a revoked
 * key stops working at the next refresh); a key created since the last refresh is found by one
 * lookup of its hash, so a fresh key works at once.
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
    const found = await this.store.findActive(hash);
    if (found !== undefined) this.byHash.set(hash, found);
    return found;
  }
}
