import type { ActiveKey, ApiKeyRecord } from '../../domain/api-keys.js';
import type { KeyStore } from '../ports.js';
import { pgCall } from './pg-errors.js';
import { toKeyRecord as toRecord, type KeyRow } from '../key-row.js';
import type { PgPool } from './pg-pool.js';

// Each write and its version bump are one statement: data-modifying CTEs run exactly once and
// commit together, and the bump only happens when the write touched a row.
const CREATE = `WITH created AS (
    INSERT INTO api_keys (name, key_hash, created_at, quota) VALUES ($1, $2, $3, $4)
    RETURNING id, name, created_at, revoked_at, quota
  ), bump AS (
    UPDATE data_versions SET version = version + 1 WHERE name = 'keys' AND EXISTS (SELECT 1 FROM created)
  )
  SELECT id, name, created_at, revoked_at, quota FROM created`;

const REVOKE = `WITH revoked AS (
    UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id
  ), bump AS (
    UPDATE data_versions SET version = version + 1 WHERE name = 'keys' AND EXISTS (SELECT 1 FROM revoked)
  )
  SELECT id FROM revoked`;

const SET_QUOTA = `WITH changed AS (
    UPDATE api_keys SET quota = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id
  ), bump AS (
    UPDATE data_versions SET version = version + 1 WHERE name = 'keys' AND EXISTS (SELECT 1 FROM changed)
  )
  SELECT id FROM changed`;

export class PgKeyStore implements KeyStore {
  constructor(private readonly pool: PgPool) {}

  async create(name: string | null, keyHash: string, now: Date, quota: number | null = null): Promise<ApiKeyRecord> {
    return pgCall(async () => {
      const result = await this.pool.query<KeyRow>(CREATE, [name, keyHash, now.getTime(), quota]);
      return toRecord(result.rows[0]!);
    });
  }

  async list(): Promise<ApiKeyRecord[]> {
    return pgCall(async () => {
      const result = await this.pool.query<KeyRow>('SELECT id, name, created_at, revoked_at, quota FROM api_keys ORDER BY id');
      return result.rows.map(toRecord);
    });
  }

  async revoke(id: number, now: Date): Promise<boolean> {
    // An id no bigint can hold names no key; PostgreSQL would reject the parameter instead.
    if (!Number.isSafeInteger(id)) return false;
    return pgCall(async () => (await this.pool.query(REVOKE, [id, now.getTime()])).rowCount === 1);
  }

  async setQuota(id: number, quota: number | null): Promise<boolean> {
    if (!Number.isSafeInteger(id)) return false;
    return pgCall(async () => (await this.pool.query(SET_QUOTA, [id, quota])).rowCount === 1);
  }

  async findActive(keyHash: string): Promise<number | undefined> {
    return pgCall(async () => {
      const result = await this.pool.query<{ id: number }>(
        'SELECT id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [keyHash],
      );
      return result.rows[0]?.id;
    });
  }

  async activeKeys(): Promise<Map<string, ActiveKey>> {
    return pgCall(async () => {
      const result = await this.pool.query<[string, number, number | null]>({
        text: 'SELECT key_hash, id, quota FROM api_keys WHERE revoked_at IS NULL ORDER BY id',
        rowMode: 'array',
      });
      return new Map(result.rows.map(([hash, id, quota]) => [hash, { id, quota }]));
    });
  }

  async version(): Promise<number> {
    return pgCall(async () => {
      const result = await this.pool.query<{ version: number }>("SELECT version FROM data_versions WHERE name = 'keys'");
      return result.rows[0]!.version;
    });
  }
}
