import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../ports.js';
import { redisCall } from './redis-errors.js';

/**
 * The whole decision in one script, so it is atomic on the server whatever the number of
 * processes. It touches exactly KEYS[1], a hash { start, used }, which keeps it valid on Redis
 * Cluster. ARGV: now, periodMs, limit, ttlMs. Replies { allowed (0|1), used, start (as text:
 * never through a Lua float) }.
 * - no counter, or the period is over: a new period starts at `now`, this request counted;
 * - used < limit: counted;
 * - otherwise refused, nothing written.
 * The expiry is relative (PEXPIRE, set when a period starts), so it runs on Redis's own clock:
 * an absolute PEXPIREAT computed from the caller's clock would delete a live counter early when
 * the two clocks disagree (or the caller's clock is a test's), which would hand out a new quota.
 */
const CONSUME_LUA = `
local now = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'start', 'used')
local start = tonumber(state[1])
local used = tonumber(state[2])
if start == nil or used == nil or now >= start + period then
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'used', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {1, 1, ARGV[1]}
end
if used >= limit then
  return {0, used, state[1]}
end
return {1, redis.call('HINCRBY', KEYS[1], 'used', 1), state[1]}
`;
const CONSUME_SHA = createHash('sha1').update(CONSUME_LUA).digest('hex');

/** Kept past the period's end, so a counter outlives its period and then goes away by itself. */
const EXPIRY_MARGIN_MS = 60 * 60 * 1000;

export class RedisQuotaStore implements QuotaStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** The braces are a hash tag: on a cluster, a key's counter lives on one slot. */
  private key(keyId: number): string {
    return `${this.keyPrefix}quota:{${keyId}}`;
  }

  async consume(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    const args = [String(now), String(policy.periodMs), String(policy.limit), String(Math.ceil(policy.periodMs) + EXPIRY_MARGIN_MS)];
    const reply = await redisCall(() => this.run(this.key(keyId), args));
    const [allowed, used, start] = reply as [number, number, string];
    return { allowed: allowed === 1, used: Number(used), periodStart: Number(start) };
  }

  async usage(keyId: number): Promise<{ used: number; periodStart: number } | undefined> {
    const [start, used] = await redisCall(() => this.redis.hmget(this.key(keyId), 'start', 'used'));
    if (start == null || used == null) return undefined;
    return { used: Number(used), periodStart: Number(start) };
  }

  /** EVALSHA, and EVAL once when the server does not hold the script yet (restart, failover). */
  private async run(key: string, args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(CONSUME_SHA, 1, key, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return this.redis.eval(CONSUME_LUA, 1, key, ...args);
    }
  }
}
