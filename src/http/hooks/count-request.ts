import type { FastifyReply, FastifyRequest } from 'fastify';
import { policyFor, rateLimitHeaders, rateLimitMessage, type Clock, type QuotaDecision, type QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../../storage/ports.js';
import { HttpError, sendError } from '../errors.js';

/** How a request was counted: the key's policy and the decision (what GET /usage answers from). */
export interface Counted {
  policy: QuotaPolicy;
  decision: QuotaDecision;
  /** When it was counted (ms since the epoch, the quota's clock). */
  now: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by countRequest on every request it lets through. */
    counted?: Counted;
  }
}

export interface QuotaDeps {
  quota: QuotaStore;
  /** QUOTA_LIMIT and the period: the policy of every key without a quota of its own. */
  policy: QuotaPolicy;
  clock: Clock;
}

/** SPEC §7: the 429 body has no `error` field; DECISIONS §10: it states the key's own quota. */
export const quotaExceeded = (policy: QuotaPolicy) => new HttpError(429, rateLimitMessage(policy), false);

/**
 * onRequest, after authenticate (DECISIONS §1.3): every authenticated request is counted,
 * whatever its outcome; past the key's quota (its own, else QUOTA_LIMIT) it is refused with 429
 * and not counted.
 */
export function countRequest({ quota, policy: defaults, clock }: QuotaDeps) {
  // One policy and one 429 per distinct quota, made once: nothing is allocated per request for them.
  const byQuota = new Map<number | null, { policy: QuotaPolicy; exceeded: HttpError }>();
  const planOf = (ownQuota: number | null) => {
    let plan = byQuota.get(ownQuota);
    if (!plan) {
      const policy = policyFor(defaults, ownQuota);
      byQuota.set(ownQuota, (plan = { policy, exceeded: quotaExceeded(policy) }));
    }
    return plan;
  };
  return async function countRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = request.quotaKey;
    if (key === undefined) throw new Error('countRequest runs after authenticate');
    const { policy, exceeded } = planOf(key.quota);
    const now = clock.now();
    const decision = await quota.consume(key, now, policy);
    reply.headers(rateLimitHeaders(policy, decision, now));
    if (!decision.allowed) return sendError(reply, exceeded);
    request.counted = { policy, decision, now };
    return undefined;
  };
}
