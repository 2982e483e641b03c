/**
 * What a store's own clock (Redis's TIME, PostgreSQL's clock_timestamp(); milliseconds) is at
 * least, now: the largest lower bound of the offset between it and this process's monotonic
 * clock seen in the last minute. Every reading R taken by the store and received here at local
 * time t gives one: the store read R at or before t, so its clock at t is at least R, and at any
 * later local time t' at least R + (t' - t) (the clocks run at the same rate, up to a drift that a
 * minute's window keeps to a few ms). Readings come from a query of the clock when none is recent
 * (at connect, and after a reconnect, which may reach another server with another clock) and
 * from every quota decision's reply, which carries the store's time. A lower bound never puts a
 * deadline after the moment the instance gives up; a slow reading only makes it earlier (a
 * decision refused as late, answered 503 and not counted).
 */
export class RemoteClock {
  private static readonly WINDOW_MS = 30_000;
  private current = { since: -Infinity, best: -Infinity };
  private previous = -Infinity;

  constructor(private readonly monotonicMs: () => number = () => performance.now()) {}

  /** Forget every reading (a new connection may reach another server). */
  reset(): void {
    this.current = { since: -Infinity, best: -Infinity };
    this.previous = -Infinity;
  }

  /** The store read `remoteMs` at or before the local moment `receivedAt` (monotonic ms). */
  observe(remoteMs: number, receivedAt: number = this.monotonicMs()): void {
    if (!Number.isFinite(remoteMs)) return;
    this.roll(receivedAt);
    this.current.best = Math.max(this.current.best, remoteMs - receivedAt);
  }

  /** A lower bound of the store's clock now, or undefined when no reading of the last minute is left. */
  lowerBound(): number | undefined {
    const now = this.monotonicMs();
    this.roll(now);
    const offset = Math.max(this.current.best, this.previous);
    return offset === -Infinity ? undefined : now + offset;
  }

  private roll(now: number): void {
    if (now - this.current.since < RemoteClock.WINDOW_MS) return;
    this.previous = now - this.current.since < 2 * RemoteClock.WINDOW_MS ? this.current.best : -Infinity;
    this.current = { since: now, best: -Infinity };
  }
}
