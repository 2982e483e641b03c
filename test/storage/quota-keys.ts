import { randomBytes } from 'node:crypto';
import type { ActiveKey } from '../../src/domain/api-keys.js';
import type { QuotaKey } from '../../src/storage/ports.js';

/** The key with this id as the quota store counts it, from a key store's active keys. */
export function quotaKeyOf(activeKeys: ReadonlyMap<string, ActiveKey>, id: number): QuotaKey {
  for (const [hash, key] of activeKeys) if (key.id === id) return { id, hash };
  throw new Error(`no active key ${id}`);
}

/** A hash as the key stores hold them (64 hex digits), random. */
export const randomKeyHash = (): string => randomBytes(32).toString('hex');
