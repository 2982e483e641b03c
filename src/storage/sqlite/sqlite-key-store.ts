import type { ApiKeyRecord } from '../../domain/api-keys.js';
import type { KeyStore } from '../ports.js';
import { onSqlite, type SqliteDb } from './connection.js';
import { toKeyRecord as toRecord, type KeyRow } from '../key-row.js';

const BUMP = "UPDATE data_versions SET version = version + 1 WHERE name = 'keys'";

export class SqliteKeyStore implements KeyStore {
  constructor(private readonly db: SqliteDb) {}

  async create(name: string | null, keyHash: string, now: Date): Promise<ApiKeyRecord> {
    return this.db.transaction(() => {
      const row = this.db
        .prepare('INSERT INTO api_keys (name, key_hash, created_at) VALUES (?, ?, ?) RETURNING id, name, created_at, revoked_at')
        .get(name, keyHash, now.getTime()) as KeyRow;
      this.db.exec(BUMP);
      return toRecord(row);
    }).immediate();
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = this.db.prepare('SELECT id, name, created_at, revoked_at FROM api_keys ORDER BY id').all() as KeyRow[];
    return rows.map(toRecord);
  }

  async revoke(id: number, now: Date): Promise<boolean> {
    return this.db.transaction(() => {
      const result = this.db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(now.getTime(), id);
      if (result.changes === 0) return false;
      this.db.exec(BUMP);
      return true;
    }).immediate();
  }

  async findActive(keyHash: string): Promise<number | undefined> {
    return onSqlite(
      () => this.db.prepare('SELECT id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').pluck().get(keyHash) as number | undefined,
    );
  }

  async activeKeys(): Promise<Map<string, number>> {
    const rows = this.db.prepare('SELECT key_hash, id FROM api_keys WHERE revoked_at IS NULL').raw().all() as [string, number][];
    return new Map(rows);
  }

  async version(): Promise<number> {
    return this.db.prepare("SELECT version FROM data_versions WHERE name = 'keys'").pluck().get() as number;
  }
}
