import type { QuotaDecision, QuotaPolicy } from '../domain/quota.js';

/** A quota request waiting for its batch: what it asks, and how to answer it. */
export interface PendingConsume {
  keyId: number;
  now: number;
  policy: QuotaPolicy;
  resolve: (decision: QuotaDecision) => void;
  reject: (err: unknown) => void;
}

/**
 * The quota requests of one event-loop turn, gathered for one decision: the first request of a
 * turn schedules `decide` for the end of the turn (setImmediate runs after the poll phase has
 * read every request that was ready), which gets the whole batch in arrival order and answers
 * each request. Group commit for the stores that count many requests in one operation.
 */
export class TurnBatch {
  private pending: PendingConsume[] = [];

  constructor(private readonly decide: (batch: PendingConsume[]) => void) {}

  add(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ keyId, now, policy, resolve, reject }) === 1) setImmediate(() => this.run());
    });
  }

  /** Hands everything waiting to `decide` now. */
  run(): void {
    const batch = this.pending;
    this.pending = [];
    this.decide(batch);
  }

  /** Puts a batch back in front of what arrived since; the caller schedules the next `run`. */
  putBack(batch: PendingConsume[]): void {
    this.pending = batch.concat(this.pending);
  }
}
