import { hash, randomBytes } from 'node:crypto';

/** What the stores keep of a key: never the key itself. */
export interface ApiKeyRecord {
  id: number;
  name: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** The key's own requests per period; null: the configured QUOTA_LIMIT (DECISIONS §10). */
  quota: number | null;
}

/** An unrevoked key as servers hold it in memory: its id and its own quota (null: the default). */
export interface ActiveKey {
  id: number;
  quota: number | null;
}

/** The range of a key's own quota: the same as QUOTA_LIMIT's. */
export const MAX_KEY_QUOTA = 1_000_000_000;

export const KEY_PREFIX = 'cr_';

/** 256 random bits, URL-safe and printable, so it survives shells, headers and copy-paste. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Keys are looked up by their SHA-256: the plain key is never stored, and because lookup goes
 * through the hash there is no byte-by-byte comparison of secrets to time. A fast hash is right
 * here (unlike for passwords): the keys carry 256 bits of entropy, so there is nothing to brute-force.
 */
export function hashApiKey(key: string): string {
  // The one-shot form: cheaper than a Hash object for a key this short, and it runs on every request.
  return hash('sha256', key, 'hex');
}
