import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, rateLimitMessage, type Clock, type QuotaPolicy } from '../../domain/quota.js';
import type { KeyCache } from '../../live/key-cache.js';
import type { QuotaStore } from '../../storage/ports.js';
import { HttpError, sendError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's id (never the key itself): for logs. */
    keyId?: number;
  }
}

/** RFC 6750: the scheme word is case-insensitive; the token is one non-empty word. */
const BEARER = /^Bearer +(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** The 429 every refused request gets (SPEC §7: no `error` field). */
export const quotaExceeded = (policy: QuotaPolicy) => new HttpError(429, rateLimitMessage(policy), false);

export interface GateDeps {
  keys: KeyCache;
  quota: QuotaStore;
  policy: QuotaPolicy;
  clock: Clock;
}

/** SPEC §5: the answer to a request without a well-formed `Authorization: Bearer <key>`. */
export const missingKey = new HttpError(401, 'Missing or malformed Authorization header');

/**
 * DECISIONS §1: auth (401), then quota (429); everything that passes is counted. The refusals
 * are answered right here, from answers built once: this is the path a flood of bad keys takes.
 */
export function authenticateAndCount(deps: GateDeps) {
  const invalid = new HttpError(401, 'Invalid API key');
  const exceeded = quotaExceeded(deps.policy);
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return sendError(reply, missingKey);
    const keyId = await deps.keys.authenticate(token);
    if (keyId === undefined) return sendError(reply, invalid);
    request.keyId = keyId;
    const now = deps.clock.now();
    const decision = await deps.quota.consume(keyId, now, deps.policy);
    reply.headers(rateLimitHeaders(deps.policy, decision, now));
    return decision.allowed ? undefined : sendError(reply, exceeded);
  };
}
