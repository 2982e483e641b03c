import type { ApiKeyRecord } from '../domain/api-keys.js';

/** An `api_keys` row as both SQL adapters select it (times in ms since the epoch). */
export interface KeyRow {
  id: number;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
  quota: number | null;
}

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    quota: row.quota,
  };
}
