import type { FastifyReply, FastifyRequest } from 'fastify';
import { policyFor, rateLimitHeaders, rateLimitMessage, type Clock, type QuotaDecision, type QuotaPolicy } from '../../domain/quota.js';
import type { KnownKey } from '../../live/key-cache.js';
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

/** One request of a key, counted: its policy, the decision, their headers, and the 429 when refused. */
export interface Charge extends Counted {
  headers: Record<string, string>;
  /** The 429 to answer when the quota refused the request (not counted then). */
  refused: HttpError | undefined;
}

/**
 * Counts one request of a key against its quota (its own, else QUOTA_LIMIT): the API's hook below
 * and each MCP tool call (http/mcp/) are counted by this alone.
 */
export function quotaCounter({ quota, policy: defaults, clock }: QuotaDeps): (key: KnownKey) => Promise<Charge> {
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
  return async function charge(key) {
    const { policy, exceeded } = planOf(key.quota);
    const now = clock.now();
    const decision = await quota.consume(key, now, policy);
    return { policy, decision, now, headers: rateLimitHeaders(policy, decision, now), refused: decision.allowed ? undefined : exceeded };
  };
}

/**
 * onRequest, after authenticate (DECISIONS §1.3): every authenticated request is counted,
 * whatever its outcome; past the key's quota (its own, else QUOTA_LIMIT) it is refused with 429
 * and not counted.
 */
export function countRequest(deps: QuotaDeps) {
  const charge = quotaCounter(deps);
  return async function countRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = request.quotaKey;
    if (key === undefined) throw new Error('countRequest runs after authenticate');
    const { policy, decision, now, headers, refused } = await charge(key);
    reply.headers(headers);
    if (refused) return sendError(reply, refused);
    request.counted = { policy, decision, now };
    return undefined;
  };
}
