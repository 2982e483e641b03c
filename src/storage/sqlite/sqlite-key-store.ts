import type { ActiveKey, ApiKeyRecord } from '../../domain/api-keys.js';
import type { KeyStore } from '../ports.js';
import { withStoreErrors, statement, type SqliteDb } from './connection.js';
import { toKeyRecord as toRecord, type KeyRow } from '../key-row.js';

const BUMP = "UPDATE data_versions SET version = version + 1 WHERE name = 'keys'";

export class SqliteKeyStore implements KeyStore {
  private readonly insert;
  private readonly selectAll;
  private readonly markRevoked;
  private readonly writeQuota;
  private readonly selectActiveId;
  private readonly selectActive;
  private readonly selectVersion;

  constructor(private readonly db: SqliteDb) {
    this.insert = statement(
      db,
      'INSERT INTO api_keys (name, key_hash, created_at, quota) VALUES (?, ?, ?, ?) RETURNING id, name, created_at, revoked_at, quota',
    );
    this.selectAll = statement(db, 'SELECT id, name, created_at, revoked_at, quota FROM api_keys ORDER BY id');
    this.markRevoked = statement(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    this.writeQuota = statement(db, 'UPDATE api_keys SET quota = ? WHERE id = ? AND revoked_at IS NULL');
    this.selectActiveId = statement(db, 'SELECT id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').pluck();
    this.selectActive = statement(db, 'SELECT key_hash, id, quota FROM api_keys WHERE revoked_at IS NULL').raw();
    this.selectVersion = statement(db, "SELECT version FROM data_versions WHERE name = 'keys'").pluck();
  }

  async create(name: string | null, keyHash: string, now: Date, quota: number | null = null): Promise<ApiKeyRecord> {
    return this.db.transaction(() => {
      const row = this.insert.get(name, keyHash, now.getTime(), quota) as KeyRow;
      this.db.exec(BUMP);
      return toRecord(row);
    }).immediate();
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (this.selectAll.all() as KeyRow[]).map(toRecord);
  }

  async revoke(id: number, now: Date): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.markRevoked.run(now.getTime(), id).changes === 0) return false;
      this.db.exec(BUMP);
      return true;
    }).immediate();
  }

  async setQuota(id: number, quota: number | null): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.writeQuota.run(quota, id).changes === 0) return false;
      this.db.exec(BUMP);
      return true;
    }).immediate();
  }

  async findActive(keyHash: string): Promise<number | undefined> {
    return withStoreErrors(() => this.selectActiveId.get(keyHash) as number | undefined);
  }

  async activeKeys(): Promise<Map<string, ActiveKey>> {
    return new Map((this.selectActive.all() as [string, number, number | null][]).map(([hash, id, quota]) => [hash, { id, quota }]));
  }

  async version(): Promise<number> {
    return this.selectVersion.get() as number;
  }
}
