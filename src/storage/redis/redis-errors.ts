import { StoreUnavailableError } from '../ports.js';

/**
 * Redis replies that mean the server cannot serve now (loading, busy script, out of memory,
 * failover, cluster resharding, authentication), as opposed to a reply to a bad command.
 */
const UNAVAILABLE_REPLIES = /^(LOADING|BUSY|OOM|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOAUTH|WRONGPASS|MOVED|ASK|NOREPLICAS|MISCONF)\b|max number of clients/;

/**
 * Every client-side failure (connection refused or lost, command timeout, offline, retries
 * exhausted) means Redis is unavailable; a server reply error is a bug in our command unless it
 * is one of the replies above.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof StoreUnavailableError) return true;
  if (err.name === 'ReplyError') return UNAVAILABLE_REPLIES.test(err.message);
  return true;
}

export async function redisCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw err;
    throw isRedisUnavailable(err) ? new StoreUnavailableError('Redis', { cause: err }) : err;
  }
}
