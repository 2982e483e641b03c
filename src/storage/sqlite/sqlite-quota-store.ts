import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { QuotaKey, QuotaStore } from '../ports.js';
import { TurnBatch, type PendingConsume } from '../turn-batch.js';
import { asUnavailable, isLockBusy, LOCK_WAIT_MS, statement, type SqliteDb } from './connection.js';

/** Lock retries on the next loop turns before retrying every millisecond. */
const NEXT_TURN_RETRIES = 20;

/**
 * How long a batch may keep growing before its commit (TurnBatch's `gatherMs`): the first
 * request of a batch waits at most this much longer than it would at the end of its own turn.
 */
const GATHER_MS = 1;

interface UsageRow {
  used: number;
  period_start: number;
}

/** The decision for one request given the counter before it; `next` is the counter after. */
function decide(row: UsageRow | undefined, now: number, policy: QuotaPolicy): { decision: QuotaDecision; next: UsageRow } {
  if (!row || now >= row.period_start + policy.periodMs) {
    return { decision: { allowed: true, used: 1, periodStart: now }, next: { used: 1, period_start: now } };
  }
  if (row.used >= policy.limit) return { decision: { allowed: false, used: row.used, periodStart: row.period_start }, next: row };
  const used = row.used + 1;
  return { decision: { allowed: true, used, periodStart: row.period_start }, next: { used, period_start: row.period_start } };
}

/**
 * Group commit: the requests that arrive within one turn of the event loop, and the turns after
 * it while they keep bringing more (up to GATHER_MS), are counted in ONE IMMEDIATE transaction,
 * and each is answered only after that transaction has committed. The
 * transaction holds the file's write lock from its first read, so the read-decide-write is
 * atomic across every process sharing the file; within it, requests are decided one by one in
 * arrival order. A failed commit fails every request of the batch (none is served uncounted).
 */
export class SqliteQuotaStore implements QuotaStore {
  private readonly select;
  private readonly write;
  private readonly countBatch;
  private readonly batches: TurnBatch;
  private lockedSince: number | undefined;
  private lockRetries = 0;

  /** `db` should wait for no lock (openSqlite's `lockWaitMs: 0`): this store waits without blocking. */
  constructor(
    db: SqliteDb,
    private readonly lockWaitMs = LOCK_WAIT_MS,
    /** The batches' clock (tests stop it, so that a slow turn cannot end a batch early). */
    { monotonicMs }: { monotonicMs?: () => number } = {},
  ) {
    this.batches = new TurnBatch((batch) => this.commitBatch(batch), { gatherMs: GATHER_MS, monotonicMs });
    this.select = statement(db, 'SELECT used, period_start FROM quota_usage WHERE key_id = ?');
    this.write = statement(db, `INSERT INTO quota_usage (key_id, period_start, used) VALUES (?, ?, ?)
      ON CONFLICT (key_id) DO UPDATE SET period_start = excluded.period_start, used = excluded.used`);
    this.countBatch = db.transaction((batch: readonly PendingConsume[]): QuotaDecision[] => {
      const counters = new Map<number, UsageRow | undefined>();
      // Counted by id: the counter row is in the key's own database, tied to its key row.
      const decisions = batch.map(({ key: { id: keyId }, now, policy }) => {
        const before = counters.has(keyId) ? counters.get(keyId) : (this.select.get(keyId) as UsageRow | undefined);
        const { decision, next } = decide(before, now, policy);
        counters.set(keyId, next);
        return decision;
      });
      for (const [keyId, row] of counters) this.write.run(keyId, row!.period_start, row!.used);
      return decisions;
    });
  }

  consume(key: QuotaKey, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return this.batches.add(key, now, policy);
  }

  private commitBatch(batch: PendingConsume[]): void {
    let decisions: QuotaDecision[];
    try {
      decisions = this.countBatch.immediate(batch);
    } catch (err) {
      if (isLockBusy(err) && this.waitForLock(batch)) return;
      this.lockedSince = undefined;
      const failure = asUnavailable(err);
      for (const request of batch) request.reject(failure);
      return;
    }
    this.lockedSince = undefined;
    batch.forEach((request, i) => request.resolve(decisions[i]!));
  }

  /**
   * Another process holds the write lock (its own commit, usually well under a millisecond; an
   * ingestion, up to a second or so). The batch tries again on the next turns of the event loop,
   * then every millisecond, instead of sleeping in SQLite's busy handler, which blocks the whole
   * process while it sleeps. Requests that arrive meanwhile join behind the batch, in arrival
   * order. False when the lock has been held too long: the batch then fails (503).
   */
  private waitForLock(batch: PendingConsume[]): boolean {
    const now = performance.now();
    if (this.lockedSince === undefined) {
      this.lockedSince = now;
      this.lockRetries = 0;
    }
    if (now - this.lockedSince >= this.lockWaitMs) return false;
    this.batches.putBack(batch);
    if (++this.lockRetries <= NEXT_TURN_RETRIES) setImmediate(() => this.batches.decideNow());
    else setTimeout(() => this.batches.decideNow(), 1);
    return true;
  }

  async usage(key: QuotaKey | number): Promise<{ used: number; periodStart: number } | undefined> {
    const row = this.select.get(typeof key === 'number' ? key : key.id) as UsageRow | undefined;
    return row && { used: row.used, periodStart: row.period_start };
  }
}
