import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import { answerCounted } from '../counted-requests.js';
import type { QuotaKey, QuotaStore } from '../ports.js';
import { pgCall } from './pg-errors.js';
import type { PgPool } from './pg-pool.js';

/**
 * A key's waiting requests decided in one statement, in arrival order, exactly as one by one in a
 * row. They come as runs ($2..$5: time, period, limit, how many), folded over the counter in order:
 * - the period is over (now >= start + period): a new one starts at now, up to the limit counted;
 * - otherwise as many as the period has left are counted, the rest refused.
 * FOR UPDATE waits for any other statement holding the row and then reads its newest committed
 * version (READ COMMITTED re-reads a row updated since the statement's snapshot); the UPDATE in
 * the same statement writes the fold's end over that version, whose lock it holds. Every
 * process's statements queue on the row lock, so the count is exact across processes. Nothing
 * counted: nothing written. No row yet: the statement returns nothing (see INSERT_FIRST).
 */
const CONSUME = `WITH RECURSIVE
  runs AS (
    SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::integer[], $5::integer[]) WITH ORDINALITY AS r(now, period, lim, n, i)
  ),
  locked AS MATERIALIZED (
    SELECT used, period_start FROM quota_usage WHERE key_id = $1 FOR UPDATE
  ),
  fold (i, start, before, granted) AS (
    SELECT 0::bigint, period_start, 0, used FROM locked
    UNION ALL
    SELECT s.i, s.start, s.before, GREATEST(0, LEAST(s.n, s.lim - s.before))
    FROM (
      SELECT r.i, r.n, r.lim,
        CASE WHEN r.now >= f.start + r.period THEN r.now ELSE f.start END AS start,
        CASE WHEN r.now >= f.start + r.period THEN 0 ELSE f.before + f.granted END AS before
      FROM fold f JOIN runs r ON r.i = f.i + 1
    ) s
  ),
  final AS (
    SELECT start, before + granted AS used FROM fold ORDER BY i DESC LIMIT 1
  ),
  written AS (
    UPDATE quota_usage q SET period_start = final.start, used = final.used
    FROM final WHERE q.key_id = $1 AND (q.period_start, q.used) IS DISTINCT FROM (final.start, final.used)
  )
  SELECT granted, before + granted AS used, start AS period_start FROM fold WHERE i > 0 ORDER BY i`;

/** A key's first run: its counter starts at $2 with up to the limit counted, unless another statement made it first. */
const INSERT_FIRST = `INSERT INTO quota_usage (key_id, period_start, used) VALUES ($1, $2, LEAST($3::integer, $4::integer))
  ON CONFLICT (key_id) DO NOTHING
  RETURNING used AS granted, used, period_start`;

interface DecisionRow {
  granted: number;
  used: number;
  period_start: number;
}

/** Requests of one key with the same time and policy, next to each other in arrival order. */
interface Run {
  now: number;
  policy: QuotaPolicy;
  requests: Waiting[];
}

interface Waiting {
  resolve: (decision: QuotaDecision) => void;
  reject: (err: unknown) => void;
}

/**
 * CONSUME reads the row through the statement's snapshot, so a row inserted by a statement that
 * committed after that snapshot was taken is invisible to it, while INSERT_FIRST then conflicts
 * with it; run again, CONSUME sees the row. Happens only in a race at a key's very first
 * requests, so one retry suffices; a few allow for pathological scheduling.
 */
const ATTEMPTS = 5;

/**
 * Group commit per key: one statement in flight per key; the requests that arrive meanwhile, over
 * any number of event-loop turns, wait together and are decided by the next statement, in
 * arrival order, each answered only after the statement that counted it has committed. A busy
 * key's counter is one row whose commits follow one another: with a statement per request, a key
 * could be served no faster than its row commits, so the waiting ones share a commit.
 */
export class PgQuotaStore implements QuotaStore {
  /**
   * Per key, the runs waiting for its next statement. A key is here exactly while a statement of
   * it is scheduled or in flight, which then takes (or hands on) what waits.
   */
  private readonly waiting = new Map<number, Run[]>();

  constructor(private readonly pool: PgPool) {}

  /** Counted by id: the counter row is in the key's own database, tied to its key row. */
  consume({ id: keyId }: QuotaKey, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return new Promise((resolve, reject) => {
      let runs = this.waiting.get(keyId);
      if (!runs) {
        this.waiting.set(keyId, (runs = []));
        // An idle key's first request: its statement starts at the end of the turn, with the turn's others.
        setImmediate(() => this.decideNext(keyId));
      }
      const last = runs.at(-1);
      if (last && last.now === now && last.policy.limit === policy.limit && last.policy.periodMs === policy.periodMs) last.requests.push({ resolve, reject });
      else runs.push({ now, policy, requests: [{ resolve, reject }] });
    });
  }

  /** Decides what waits for the key, then what arrived meanwhile, until nothing waits. */
  private decideNext(keyId: number): void {
    const runs = this.waiting.get(keyId)!;
    if (runs.length === 0) {
      this.waiting.delete(keyId);
      return;
    }
    this.waiting.set(keyId, []);
    void this.decide(keyId, runs).finally(() => this.decideNext(keyId));
  }

  private async decide(keyId: number, runs: Run[]): Promise<void> {
    let rows: DecisionRow[];
    try {
      rows = await pgCall(() => this.decideRuns(keyId, runs));
    } catch (err) {
      for (const run of runs) for (const request of run.requests) request.reject(err);
      return;
    }
    runs.forEach((run, i) => answerCounted(run.requests, rows[i]!.granted, rows[i]!.used, rows[i]!.period_start));
  }

  /** One row per run, in order. */
  private async decideRuns(keyId: number, runs: Run[]): Promise<DecisionRow[]> {
    const values = [keyId, runs.map((r) => r.now), runs.map((r) => r.policy.periodMs), runs.map((r) => r.policy.limit), runs.map((r) => r.requests.length)];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const folded = (await this.pool.query<DecisionRow>(CONSUME, values)).rows;
      if (folded.length === runs.length) return folded;
      const [first, ...rest] = runs;
      const inserted = (await this.pool.query<DecisionRow>(INSERT_FIRST, [keyId, first!.now, first!.requests.length, first!.policy.limit])).rows[0];
      if (inserted) return rest.length === 0 ? [inserted] : [inserted, ...(await this.decideRuns(keyId, rest))];
    }
    throw new Error(`quota_usage: no counter for key ${keyId} after ${ATTEMPTS} attempts`);
  }

  async usage(key: QuotaKey | number): Promise<{ used: number; periodStart: number } | undefined> {
    const keyId = typeof key === 'number' ? key : key.id;
    return pgCall(async () => {
      const result = await this.pool.query<DecisionRow>('SELECT used, period_start FROM quota_usage WHERE key_id = $1', [keyId]);
      const row = result.rows[0];
      return row && { used: row.used, periodStart: row.period_start };
    });
  }
}
