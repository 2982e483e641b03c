import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../ports.js';
import { pgCall } from './pg-errors.js';
import type { PgPool } from './pg-pool.js';

/**
 * One statement per request, atomic on its own (no transaction, no read-then-write):
 * - no row yet, or the period is over ($2 >= period_start + $3): a new period starts at $2 with
 *   this request counted;
 * - used < limit: counted;
 * - otherwise the upsert's WHERE fails, nothing is written, and `refused` reads the row.
 * ON CONFLICT locks the row even when its WHERE fails, so the FOR UPDATE read returns the newest
 * committed counter (READ COMMITTED re-reads a row updated since the statement's snapshot), not
 * a stale one. The increments of concurrent requests queue on the row lock, across every process.
 */
const CONSUME = `WITH counted AS (
    INSERT INTO quota_usage AS q (key_id, period_start, used) VALUES ($1, $2, 1)
    ON CONFLICT (key_id) DO UPDATE SET
      period_start = CASE WHEN $2 >= q.period_start + $3 THEN $2 ELSE q.period_start END,
      used = CASE WHEN $2 >= q.period_start + $3 THEN 1 ELSE q.used + 1 END
    WHERE $2 >= q.period_start + $3 OR q.used < $4
    RETURNING used, period_start
  ), refused AS (
    SELECT used, period_start FROM quota_usage
    WHERE key_id = $1 AND NOT EXISTS (SELECT 1 FROM counted)
    FOR UPDATE
  )
  SELECT true AS allowed, used, period_start FROM counted
  UNION ALL
  SELECT false AS allowed, used, period_start FROM refused`;

interface DecisionRow {
  allowed: boolean;
  used: number;
  period_start: number;
}

/**
 * A refused request reads the row through the statement's snapshot. A row inserted by a request
 * that committed after that snapshot was taken is locked by the upsert but invisible to the read,
 * so the statement returns nothing; run again, it sees the row. Happens only in a race at a key's
 * very first request, so one retry suffices; a few allow for pathological scheduling.
 */
const ATTEMPTS = 5;

export class PgQuotaStore implements QuotaStore {
  constructor(private readonly pool: PgPool) {}

  async consume(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return pgCall(async () => {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const result = await this.pool.query<DecisionRow>(CONSUME, [keyId, now, policy.periodMs, policy.limit]);
        const row = result.rows[0];
        if (row) return { allowed: row.allowed, used: row.used, periodStart: row.period_start };
      }
      throw new Error(`quota_usage: no counter for key ${keyId} after ${ATTEMPTS} attempts`);
    });
  }

  async usage(keyId: number): Promise<{ used: number; periodStart: number } | undefined> {
    return pgCall(async () => {
      const result = await this.pool.query<DecisionRow>('SELECT used, period_start FROM quota_usage WHERE key_id = $1', [keyId]);
      const row = result.rows[0];
      return row && { used: row.used, periodStart: row.period_start };
    });
  }
}
