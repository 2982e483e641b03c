/** The quota every key gets: `limit` counted requests per fixed period of `periodMs`. */
export interface QuotaPolicy {
  limit: number;
  periodMs: number;
}

/** The outcome of counting one request against a key. */
export interface QuotaDecision {
  allowed: boolean;
  /** Requests counted in the current period, this one included when allowed. */
  used: number;
  /** Start of the current fixed period, ms since the epoch. */
  periodStart: number;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function rateLimitMessage(policy: QuotaPolicy): string {
  const days = policy.periodMs / 86_400_000;
  return `Rate limit exceeded: ${policy.limit} requests per ${days}-day period`;
}

/** X-RateLimit-Remaining (DECISIONS §4). */
export function remainingOf(policy: QuotaPolicy, counted: { used: number }): number {
  return Math.max(0, policy.limit - counted.used);
}

/** X-RateLimit-Reset: the end of the period, in Unix seconds (DECISIONS §4). */
export function resetOf(policy: QuotaPolicy, decision: QuotaDecision): number {
  return Math.ceil((decision.periodStart + policy.periodMs) / 1000);
}

/** The X-RateLimit-* and Retry-After values of DECISIONS §4. */
export function rateLimitHeaders(policy: QuotaPolicy, decision: QuotaDecision, now: number): Record<string, string> {
  const periodEnd = decision.periodStart + policy.periodMs;
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(policy.limit),
    'x-ratelimit-remaining': String(remainingOf(policy, decision)),
    'x-ratelimit-reset': String(resetOf(policy, decision)),
  };
  if (!decision.allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((periodEnd - now) / 1000)));
  return headers;
}

/** The policy a key is counted by: its own quota when it has one, else the configured one (DECISIONS §10). */
export function policyFor(defaults: QuotaPolicy, ownQuota: number | null): QuotaPolicy {
  return ownQuota === null || ownQuota === defaults.limit ? defaults : { limit: ownQuota, periodMs: defaults.periodMs };
}

/** A time as `GET /usage` shows it: UTC, whole seconds, `Z` (DECISIONS §10). */
const isoSeconds = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

/** The body of `GET /usage`, from the decision that counted this very request. */
export interface UsageBody {
  limit: number;
  used: number;
  remaining: number;
  period_start: string;
  period_end: string;
}

/**
 * What `GET /usage` answers, from the same policy and decision as its X-RateLimit headers:
 * `limit`, `remaining` and `period_end` are those headers' values. The period starts at a
 * millisecond; both ends are shown to the second rounded up, as the Reset header is, so they are
 * exactly one period apart.
 */
export function usageOf(policy: QuotaPolicy, decision: QuotaDecision): UsageBody {
  const reset = resetOf(policy, decision);
  return {
    limit: policy.limit,
    used: decision.used,
    remaining: remainingOf(policy, decision),
    period_start: isoSeconds(reset - policy.periodMs / 1000),
    period_end: isoSeconds(reset),
  };
}

/** Whole days of the current period gone by at `now` (the current one not included), and days left, the current one included. */
export function periodDays(policy: QuotaPolicy, decision: QuotaDecision, now: number): { elapsed: number; remaining: number } {
  const elapsed = Math.max(0, Math.floor((now - decision.periodStart) / 86_400_000));
  const remaining = Math.max(0, Math.ceil((decision.periodStart + policy.periodMs - now) / 86_400_000));
  return { elapsed, remaining };
}

/** A key's counter as an operator sees it at `now`: a period that has ended counts nothing any more. */
export interface CurrentUsage {
  used: number;
  remaining: number;
  /** When the current period ends (ms since the epoch); null when none runs (the next request starts one). */
  periodEnd: number | null;
}

export function currentUsage(policy: QuotaPolicy, counter: { used: number; periodStart: number } | undefined, now: number): CurrentUsage {
  if (counter === undefined || now >= counter.periodStart + policy.periodMs) return { used: 0, remaining: policy.limit, periodEnd: null };
  return { used: counter.used, remaining: remainingOf(policy, counter), periodEnd: counter.periodStart + policy.periodMs };
}
