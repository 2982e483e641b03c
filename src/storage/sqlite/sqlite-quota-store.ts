import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../ports.js';
import { onSqlite, type SqliteDb } from './connection.js';

interface UsageRow {
  used: number;
  period_start: number;
}

export class SqliteQuotaStore implements QuotaStore {
  private readonly select;
  private readonly startPeriod;
  private readonly increment;
  private readonly consumeTx;

  constructor(db: SqliteDb) {
    this.select = db.prepare('SELECT used, period_start FROM quota_usage WHERE key_id = ?');
    this.startPeriod = db.prepare(`INSERT INTO quota_usage (key_id, period_start, used) VALUES (?, ?, 1)
      ON CONFLICT (key_id) DO UPDATE SET period_start = excluded.period_start, used = 1`);
    this.increment = db.prepare('UPDATE quota_usage SET used = used + 1 WHERE key_id = ?');
    // IMMEDIATE takes the file's write lock before reading, so the read-check-write is atomic
    // across every process that shares the file.
    this.consumeTx = db.transaction((keyId: number, now: number, policy: QuotaPolicy): QuotaDecision => {
      const row = this.select.get(keyId) as UsageRow | undefined;
      if (!row || now >= row.period_start + policy.periodMs) {
        this.startPeriod.run(keyId, now);
        return { allowed: true, used: 1, periodStart: now };
      }
      if (row.used >= policy.limit) return { allowed: false, used: row.used, periodStart: row.period_start };
      this.increment.run(keyId);
      return { allowed: true, used: row.used + 1, periodStart: row.period_start };
    });
  }

  async consume(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return onSqlite(() => this.consumeTx.immediate(keyId, now, policy));
  }

  async usage(keyId: number): Promise<{ used: number; periodStart: number } | undefined> {
    const row = this.select.get(keyId) as UsageRow | undefined;
    return row && { used: row.used, periodStart: row.period_start };
  }
}
