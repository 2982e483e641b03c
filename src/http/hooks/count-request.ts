import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, rateLimitMessage, type Clock, type QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../../storage/ports.js';
import { HttpError, sendError } from '../errors.js';

export interface QuotaDeps {
  quota: QuotaStore;
  policy: QuotaPolicy;
  clock: Clock;
}

/** SPEC §7: the 429 body has no `error` field. */
export const quotaExceeded = (policy: QuotaPolicy) => new HttpError(429, rateLimitMessage(policy), false);

/**
 * onRequest, after authenticate (DECISIONS §1.3): every authenticated request is counted,
 * whatever its outcome; past the quota it is refused with 429 and not counted.
 */
export function countRequest({ quota, policy, clock }: QuotaDeps) {
  const exceeded = quotaExceeded(policy);
  return async function countRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (request.quotaKey === undefined) throw new Error('countRequest runs after authenticate');
    const now = clock.now();
    const decision = await quota.consume(request.quotaKey, now, policy);
    reply.headers(rateLimitHeaders(policy, decision, now));
    return decision.allowed ? undefined : sendError(reply, exceeded);
  };
}
