import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, rateLimitMessage, type Clock, type QuotaPolicy } from '../../domain/quota.js';
import type { KeyCache } from '../../live/key-cache.js';
import type { QuotaStore } from '../../storage/ports.js';
import { HttpError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's id (never the key itself): for logs. */
    keyId?: number;
  }
}

/** RFC 6750: the scheme word is case-insensitive; the token is one non-empty word. */
const BEARER = /^Bearer +(\S+)$/i;

export interface GateDeps {
  keys: KeyCache;
  quota: QuotaStore;
  policy: QuotaPolicy;
  clock: Clock;
}

/** DECISIONS §1: auth (401), then quota (429); everything that passes is counted. */
export function authenticateAndCount(deps: GateDeps) {
  const exceeded = rateLimitMessage(deps.policy);
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) throw new HttpError(401, 'Missing or malformed Authorization header');
    const keyId = await deps.keys.authenticate(token);
    if (keyId === undefined) throw new HttpError(401, 'Invalid API key');
    request.keyId = keyId;
    const now = deps.clock.now();
    const decision = await deps.quota.consume(keyId, now, deps.policy);
    reply.headers(rateLimitHeaders(deps.policy, decision, now));
    if (!decision.allowed) throw new HttpError(429, exceeded, false);
  };
}
