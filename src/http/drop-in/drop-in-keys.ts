import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyCache, KnownKey } from '../../live/key-cache.js';
import { sendError } from '../errors.js';
import { bearerToken, INVALID_KEY, MISSING_KEY, repeatsAuthorization } from '../hooks/authenticate.js';

/** Where a drop-in request's key comes from, when not from `Authorization: Bearer`. */
export interface KeySources {
  keys: KeyCache;
  /** OXR: the key as `app_id=` (OXR's own way); undefined when absent, null when malformed (repeated). */
  queryKey?: (request: FastifyRequest) => string | null | undefined;
  /** Frankfurter with COMPAT_KEY: the key a request without any is charged to. */
  keyless?: () => KnownKey | undefined;
}

function appId({ query }: FastifyRequest): string | null | undefined {
  if (typeof query !== 'object' || query === null || !('app_id' in query)) return undefined;
  return typeof query.app_id === 'string' && query.app_id !== '' ? query.app_id : null;
}

/** OXR paths: a Bearer key, else `app_id` (DECISIONS §16). */
export const oxrKeys = (keys: KeyCache): KeySources => ({ keys, queryKey: appId });

/** Frankfurter paths: a Bearer key, else the key COMPAT_KEY names when it is set (DECISIONS §16). */
export const frankfurterKeys = (keys: KeyCache, compat: boolean): KeySources => (compat ? { keys, keyless: () => keys.compatKey() } : { keys });

/**
 * onRequest on the drop-in paths, in place of authenticate (hooks/authenticate.ts), which it
 * follows rule for rule (DECISIONS §1.2), with the peers' other ways to name a key. A Bearer
 * header, when sent, always decides: a bad one is refused, never replaced by app_id or COMPAT_KEY.
 */
export function authenticateDropIn({ keys, queryKey, keyless }: KeySources) {
  return async function authenticateDropIn(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (repeatsAuthorization(request.raw.rawHeaders)) return sendError(reply, MISSING_KEY);
    const header = request.headers.authorization;
    let known: KnownKey | undefined;
    if (header !== undefined) {
      const token = bearerToken(header);
      if (token === undefined) return sendError(reply, MISSING_KEY);
      known = await knownKey(keys, token);
    } else {
      const token = queryKey?.(request);
      if (token === null) return sendError(reply, MISSING_KEY);
      if (token !== undefined) known = await knownKey(keys, token);
      else if (keyless) {
        known = keyless();
        if (known === undefined) return sendError(reply, MISSING_KEY);
      } else return sendError(reply, MISSING_KEY);
    }
    if (known === undefined) return sendError(reply, INVALID_KEY);
    request.keyId = known.id;
    request.quotaKey = known;
    return undefined;
  };
}

async function knownKey(keys: KeyCache, token: string): Promise<KnownKey | undefined> {
  const id = await keys.authenticate(token);
  return id === undefined ? undefined : keys.quotaKey(id);
}
