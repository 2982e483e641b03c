import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import { answerCounted } from '../counted-requests.js';
import { StoreUnavailableError, type QuotaKey, type QuotaStore } from '../ports.js';
import { RemoteClock } from '../remote-clock.js';
import { pgCall } from './pg-errors.js';
import { QUERY_TIMEOUT_MS, type PgPool } from './pg-pool.js';

/** PostgreSQL's clock, in ms since the epoch: read as the statement runs, not as its transaction began. */
const CLOCK_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * A key's waiting requests decided in one statement, in arrival order, exactly as one by one in a
 * row. They come as runs ($2..$5: time, period, limit, how many), folded over the counter in order:
 * - the period is over (now >= start + period): a new one starts at now, up to the limit counted;
 * - otherwise as many as the period has left are counted, the rest refused.
 * FOR UPDATE waits for any other statement holding the row and then reads its newest committed
 * version (READ COMMITTED re-reads a row updated since the statement's snapshot); the UPDATE in
 * the same statement writes the fold's end over that version, whose lock it holds. Every
 * process's statements queue on the row lock, so the count is exact across processes. Nothing
 * counted: nothing written. No row yet: the statement returns nothing (see INSERT_FIRST). Run
 * past the deadline $6 (PostgreSQL's clock once the row is locked): nothing written either.
 */
const CONSUME = `WITH RECURSIVE
  runs AS (
    SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::integer[], $5::integer[]) WITH ORDINALITY AS r(now, period, lim, n, i)
  ),
  locked AS MATERIALIZED (
    SELECT used, period_start FROM quota_usage WHERE key_id = $1 FOR UPDATE
  ),
  clock AS MATERIALIZED (
    SELECT ${CLOCK_MS} AS ms FROM locked
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
    FROM final, clock WHERE q.key_id = $1 AND (q.period_start, q.used) IS DISTINCT FROM (final.start, final.used) AND clock.ms <= $6
  )
  SELECT granted, before + granted AS used, start AS period_start, (SELECT ms FROM clock) AS clock_ms FROM fold WHERE i > 0 ORDER BY i`;

/**
 * A key's first run: its counter starts at $2 with up to the limit counted, unless another
 * statement made it first (no counter in the row) or the deadline $5 has passed (nothing written).
 */
const INSERT_FIRST = `WITH
  clock AS MATERIALIZED (SELECT ${CLOCK_MS} AS ms),
  inserted AS (
    INSERT INTO quota_usage (key_id, period_start, used)
    SELECT $1, $2, LEAST($3::integer, $4::integer) FROM clock WHERE clock.ms <= $5
    ON CONFLICT (key_id) DO NOTHING
    RETURNING used AS granted, used, period_start
  )
  SELECT inserted.granted, inserted.used, inserted.period_start, clock.ms AS clock_ms FROM clock LEFT JOIN inserted ON true`;

/** A quota statement's answer: the decision of a run, and PostgreSQL's clock when it decided. */
interface DecisionRow {
  granted: number;
  used: number;
  period_start: number;
  clock_ms: number;
}

/**
 * A statement counts only if PostgreSQL runs it at least this long before the instance gives up
 * on it (QUERY_TIMEOUT_MS after handing it over): time for its commit and its reply.
 */
const DEADLINE_MARGIN_MS = 250;

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
 *
 * A request answered 503 is never charged (DECISIONS §12), even when PostgreSQL runs a statement
 * after the instance gave up waiting (a stalled server runs what it received once it resumes): as
 * for Redis (redis-quota-store.ts), each statement carries a deadline on PostgreSQL's own clock,
 * a lower bound of it (RemoteClock) plus the client's query timeout minus a margin, and writes
 * nothing when it runs past it.
 */
export class PgQuotaStore implements QuotaStore {
  /**
   * Per key, the runs waiting for its next statement. A key is here exactly while a statement of
   * it is scheduled or in flight, which then takes (or hands on) what waits.
   */
  private readonly waiting = new Map<number, Run[]>();

  private readonly clock = new RemoteClock();
  private calibrating: Promise<void> | undefined;

  constructor(private readonly pool: PgPool) {
    // A new connection may reach another server (a failover) with another clock.
    pool.on('connect', () => this.clock.reset());
  }

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

  /** Each run is answered once the statement that counted it has committed; the rest fail together. */
  private async decide(keyId: number, runs: Run[]): Promise<void> {
    let undecided = runs;
    try {
      await pgCall(async () => {
        for await (const [run, row] of this.decisions(keyId, runs)) {
          answerCounted(run.requests, row.granted, row.used, row.period_start);
          undecided = undecided.slice(1);
        }
      });
    } catch (err) {
      for (const run of undecided) for (const request of run.requests) request.reject(err);
    }
  }

  /** The runs' decisions in order, each as soon as its statement has committed. */
  private async *decisions(keyId: number, runs: Run[]): AsyncGenerator<[Run, DecisionRow]> {
    let rest = runs;
    for (let attempt = 1; rest.length > 0; attempt++) {
      if (attempt > ATTEMPTS) throw new Error(`quota_usage: no counter for key ${keyId} after ${ATTEMPTS} attempts`);
      const values = [keyId, rest.map((r) => r.now), rest.map((r) => r.policy.periodMs), rest.map((r) => r.policy.limit), rest.map((r) => r.requests.length)];
      const folded = await this.decided(CONSUME, values);
      if (folded.length === rest.length) {
        for (const [i, run] of rest.entries()) yield [run, folded[i]!];
        return;
      }
      const [first, ...others] = rest;
      const [inserted] = await this.decided(INSERT_FIRST, [keyId, first!.now, first!.requests.length, first!.policy.limit]);
      if (inserted?.granted != null) {
        yield [first!, inserted];
        rest = others;
        attempt = 0;
      }
    }
  }

  /**
   * A quota statement, handed over with its deadline as the last parameter; its answer is read
   * for PostgreSQL's clock, and one that ran past the deadline (it counted nothing) fails.
   */
  private async decided(text: string, values: unknown[]): Promise<DecisionRow[]> {
    const deadline = await this.deadline();
    const { rows } = await this.pool.query<DecisionRow>(text, [...values, deadline]);
    for (const row of rows.slice(0, 1)) {
      this.clock.observe(row.clock_ms);
      if (row.clock_ms > deadline) throw new StoreUnavailableError('PostgreSQL', { cause: new Error('the quota statement ran past its deadline') });
    }
    return rows;
  }

  /**
   * The deadline (PostgreSQL's clock, ms) of a statement handed over now: a lower bound of that
   * clock plus the client's query timeout, minus the margin. Read first when no recent reading is left.
   */
  private async deadline(): Promise<number> {
    if (this.clock.lowerBound() === undefined) await (this.calibrating ??= this.calibrate().finally(() => (this.calibrating = undefined)));
    const now = this.clock.lowerBound();
    if (now === undefined) throw new StoreUnavailableError('PostgreSQL', { cause: new Error("no reading of PostgreSQL's clock") });
    return Math.floor(now) + QUERY_TIMEOUT_MS - DEADLINE_MARGIN_MS;
  }

  private async calibrate(): Promise<void> {
    const { rows } = await this.pool.query<{ ms: number }>(`SELECT ${CLOCK_MS} AS ms`);
    this.clock.observe(rows[0]!.ms);
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
