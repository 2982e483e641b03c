import type { QuotaDecision, QuotaPolicy } from '../domain/quota.js';
import type { QuotaKey } from './ports.js';

/** A quota request waiting for its batch: what it asks, and how to answer it. */
export interface PendingConsume {
  key: QuotaKey;
  now: number;
  policy: QuotaPolicy;
  resolve: (decision: QuotaDecision) => void;
  reject: (err: unknown) => void;
}

export interface TurnBatchOptions {
  /**
   * Hold a batch while the event loop keeps bringing it requests, at most this long (ms) after
   * its first: for a store whose decision blocks the loop (a synchronous commit and its disk
   * sync), where every request that joins a batch is a sync it does not wait for alone.
   * Without it, a batch is decided at the end of the turn its first request came in.
   */
  gatherMs?: number;
  /** Monotonic milliseconds (tests give their own). */
  monotonicMs?: () => number;
}

/**
 * The quota requests of one event-loop turn, gathered for one decision: the first request of a
 * turn schedules `decide` for the end of the turn (setImmediate runs after the poll phase has
 * read every request that was ready), which gets the whole batch in arrival order and answers
 * each request. Group commit for the stores that count many requests in one operation.
 *
 * With `gatherMs`, the end of a turn in which the batch grew is not yet its end: it looks once
 * more, a turn later. That turn's poll does not block (an immediate is pending), so it only reads
 * what has arrived meanwhile, typically requests sent by clients that got their previous answers
 * while this batch was being read. The batch is decided at the first turn that brings it nothing,
 * or `gatherMs` after its first request. A loop that blocks on its commit answers requests in
 * rounds; without this, a round would be the requests of one poll, and those arriving while it is
 * handled would wait through its sync to start the next.
 */
export class TurnBatch {
  private pending: PendingConsume[] = [];
  /** How many requests the batch had when it was last looked at, and when its first came. */
  private seen = 0;
  private firstAt = 0;
  private readonly gatherMs: number | undefined;
  private readonly monotonicMs: () => number;

  constructor(
    private readonly decide: (batch: PendingConsume[]) => void,
    { gatherMs, monotonicMs = () => performance.now() }: TurnBatchOptions = {},
  ) {
    this.gatherMs = gatherMs;
    this.monotonicMs = monotonicMs;
  }

  add(key: QuotaKey, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ key, now, policy, resolve, reject }) === 1) {
        this.seen = 0;
        if (this.gatherMs !== undefined) this.firstAt = this.monotonicMs();
        setImmediate(this.endOfTurn);
      }
    });
  }

  private readonly endOfTurn = (): void => {
    if (this.gatherMs !== undefined && this.pending.length > this.seen && this.monotonicMs() - this.firstAt < this.gatherMs) {
      this.seen = this.pending.length;
      setImmediate(this.endOfTurn);
      return;
    }
    this.decideNow();
  };

  /** Hands everything waiting to `decide` now. */
  decideNow(): void {
    const batch = this.pending;
    this.pending = [];
    this.decide(batch);
  }

  /** Puts a batch back in front of what arrived since; the caller schedules the next `run`. */
  putBack(batch: PendingConsume[]): void {
    this.pending = batch.concat(this.pending);
  }
}
