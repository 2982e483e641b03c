import type { ApiKeyRecord } from '../domain/api-keys.js';
import { currentUsage, policyFor, type QuotaPolicy } from '../domain/quota.js';
import type { OpenedStores } from '../storage/ports.js';

/** One key as `keys list --json` shows it (times UTC to the second; usage null for a revoked key). */
export interface KeyListing {
  id: number;
  name: string | null;
  created_at: string;
  /** Requests per period: the key's own quota, else QUOTA_LIMIT. */
  quota: number;
  /** Whether `quota` is the key's own (false: QUOTA_LIMIT). */
  own_quota: boolean;
  used: number | null;
  remaining: number | null;
  /** When the current period ends; null when none runs (the next request starts one) or the key is revoked. */
  period_end: string | null;
  status: 'active' | 'revoked';
  revoked_at: string | null;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Every key with its use of the current period, read from the quota store the servers count in. */
export async function keyListings(stores: OpenedStores, defaults: QuotaPolicy, now: number): Promise<KeyListing[]> {
  const [records, active] = await Promise.all([stores.keys.list(), stores.keys.activeKeys()]);
  const hashOf = new Map([...active].map(([hash, { id }]) => [id, hash]));
  return Promise.all(records.map((record) => listing(stores, record, hashOf.get(record.id), defaults, now)));
}

async function listing(stores: OpenedStores, record: ApiKeyRecord, hash: string | undefined, defaults: QuotaPolicy, now: number): Promise<KeyListing> {
  const policy = policyFor(defaults, record.quota);
  // A revoked key is never counted again: its leftover counter means nothing (and Redis finds it by hash only).
  const usage = record.revokedAt === null && hash !== undefined ? currentUsage(policy, await stores.quota.usage({ id: record.id, hash }), now) : undefined;
  return {
    id: record.id,
    name: record.name,
    created_at: isoSeconds(record.createdAt.getTime()),
    quota: policy.limit,
    own_quota: record.quota !== null,
    used: usage?.used ?? null,
    remaining: usage?.remaining ?? null,
    // Rounded up to the second, as X-RateLimit-Reset is.
    period_end: usage?.periodEnd == null ? null : isoSeconds(Math.ceil(usage.periodEnd / 1000) * 1000),
    status: record.revokedAt === null ? 'active' : 'revoked',
    revoked_at: record.revokedAt === null ? null : isoSeconds(record.revokedAt.getTime()),
  };
}

const HEADER = ['ID', 'NAME', 'CREATED (UTC)', 'QUOTA', 'USED', 'REMAINING', 'PERIOD END (UTC)', 'STATUS'];
const shown = (iso: string | null) => (iso === null ? '-' : iso.replace('T', ' ').replace('Z', ''));

/** The listing as a table for people: one line per key, columns aligned, `-` where nothing applies. */
export function keyTable(listings: readonly KeyListing[]): string {
  const rows = listings.map((key) => [
    String(key.id),
    key.name ?? '-',
    shown(key.created_at),
    key.own_quota ? String(key.quota) : `${key.quota} (default)`,
    key.used === null ? '-' : String(key.used),
    key.remaining === null ? '-' : String(key.remaining),
    shown(key.period_end),
    key.status === 'active' ? 'active' : `revoked ${shown(key.revoked_at)}`,
  ]);
  const width = HEADER.map((title, i) => Math.max([...title].length, ...rows.map((row) => [...row[i]!].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(width[i]! - [...cell].length)))
      .join('  ');
  return [HEADER, ...rows].map(line).join('\n');
}
