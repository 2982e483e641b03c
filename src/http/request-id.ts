import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { KEY_PREFIX } from '../domain/api-keys.js';

/** What a caller's id may be: short and inert in a log line or a header. */
const ACCEPTED = /^[\w.:-]{1,128}$/;

declare const accepted: unique symbol;

/**
 * A request id as requestIdOf gives it: 1 to 128 of A-Z a-z 0-9 _ . : - (a UUID's characters
 * among them), so nothing in it ever needs escaping, in a header or in a JSON string.
 */
export type RequestId = string & { readonly [accepted]: true };

/**
 * Fastify's `genReqId`: the caller's `X-Request-Id` when it is acceptable (one header, up to 128
 * of A-Z a-z 0-9 _ . : -, and no key: no `cr_`), otherwise a random UUID. Fastify's own `requestIdHeader` would take
 * any value as it comes, so the header is read here instead.
 */
export function requestIdOf(request: IncomingMessage): RequestId {
  const sent = request.headers['x-request-id'];
  // An id holding a key would put it on every log line of the request (DECISIONS §11).
  return (typeof sent === 'string' && ACCEPTED.test(sent) && !sent.includes(KEY_PREFIX) ? sent : randomUUID()) as RequestId;
}
