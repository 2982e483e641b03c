import type { JobClaims } from '../ports.js';
import { statement, type SqliteDb } from './connection.js';

export class SqliteJobClaims implements JobClaims {
  private readonly claimStatement;
  private readonly completeStatement;

  constructor(db: SqliteDb) {
    // Wins when the slot is new, or its holder's lease ran out without completing it.
    this.claimStatement = statement(db, `INSERT INTO job_claims (slot, holder, lease_until) VALUES (?, ?, ?)
      ON CONFLICT (slot) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
      WHERE job_claims.completed_at IS NULL AND job_claims.lease_until <= ?`);
    this.completeStatement = statement(db, 'UPDATE job_claims SET completed_at = ? WHERE slot = ? AND holder = ?');
  }

  async claim(slot: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
    return this.claimStatement.run(slot, holder, now + leaseMs, now).changes === 1;
  }

  async complete(slot: string, holder: string, now: number): Promise<void> {
    this.completeStatement.run(now, slot, holder);
  }
}
