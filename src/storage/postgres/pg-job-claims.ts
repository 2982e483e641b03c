import type { JobClaims } from '../ports.js';
import { pgCall } from './pg-errors.js';
import type { PgPool } from './pg-pool.js';

// Wins when the slot is new, or its holder's lease ran out without completing it. One statement:
// concurrent claimants queue on the slot's row (or its unique index) and exactly one wins.
const CLAIM = `INSERT INTO job_claims AS c (slot, holder, lease_until) VALUES ($1, $2, $3)
  ON CONFLICT (slot) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
  WHERE c.completed_at IS NULL AND c.lease_until <= $4`;

export class PgJobClaims implements JobClaims {
  constructor(private readonly pool: PgPool) {}

  async claim(slot: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
    return pgCall(async () => (await this.pool.query(CLAIM, [slot, holder, now + leaseMs, now])).rowCount === 1);
  }

  async complete(slot: string, holder: string, now: number): Promise<void> {
    await pgCall(() => this.pool.query('UPDATE job_claims SET completed_at = $1 WHERE slot = $2 AND holder = $3', [now, slot, holder]));
  }
}
