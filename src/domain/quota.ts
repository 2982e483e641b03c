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
export function remainingOf(policy: QuotaPolicy, decision: QuotaDecision): number {
  return Math.max(0, policy.limit - decision.used);
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
