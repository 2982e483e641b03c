import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../../domain/api-keys.js';
import type { KeyCache, KnownKey } from '../../live/key-cache.js';
import { HttpError, sendError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's id (never the key itself): for the logs. */
    keyId?: number;
    /** The authenticated key as the quota counts it: its id, its hash and its own quota (never the key itself). */
    quotaKey?: KnownKey;
  }
}

/** RFC 6750: the scheme word is case-insensitive; the token is one non-empty word. */
const BEARER = /^Bearer +(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** SPEC §5: the answers to a request without a well-formed key, and with a wrong one. */
export const MISSING_KEY = new HttpError(401, 'Missing or malformed Authorization header');
export const INVALID_KEY = new HttpError(401, 'Invalid API key');

/**
 * Whether the request carries more than one Authorization header (DECISIONS §11). Node keeps only
 * the first in `request.headers`; the raw list, name/value pairs, still has them all.
 */
export function repeatsAuthorization(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 13 || name.toLowerCase() !== 'authorization') continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

/** onRequest, first of the API's hooks (DECISIONS §1.2): a known, unrevoked key, or a 401. */
export function authenticate(keys: KeyCache) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    // Two headers are malformed whichever of them holds a key: which one counts is not guessed.
    if (repeatsAuthorization(request.raw.rawHeaders)) return sendError(reply, MISSING_KEY);
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return sendError(reply, MISSING_KEY);
    const keyId = await keys.authenticate(token);
    if (keyId === undefined) return sendError(reply, INVALID_KEY);
    request.keyId = keyId;
    // From memory, as authenticate left it; hashed again only if a refresh dropped the key meanwhile
    // (revoked between the two calls: its own quota gone with it, the default counts this last request).
    request.quotaKey = keys.quotaKey(keyId) ?? { id: keyId, hash: hashApiKey(token), quota: null };
    return undefined;
  };
}
