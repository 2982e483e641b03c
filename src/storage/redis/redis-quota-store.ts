import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { QuotaStore } from '../ports.js';
import { answerCounted } from '../counted-requests.js';
import { TurnBatch, type PendingConsume } from '../turn-batch.js';
import { redisCall } from './redis-errors.js';

/**
 * The decisions for `n` requests of one key at one time in one script, so they are atomic on the
 * server whatever the number of processes: exactly what `n` single requests would get in a row.
 * It touches exactly KEYS[1], a hash { start, used }, which keeps it valid on Redis Cluster.
 * ARGV: now, periodMs, limit, ttlMs, n. Replies { allowed (how many of the n are counted), used
 * (after them), start (as text: never through a Lua float) }.
 * - no counter, or the period is over: a new period starts at `now`, up to `limit` counted;
 * - otherwise as many as the period has left are counted, the rest refused;
 * - nothing counted: nothing written.
 * The expiry is relative (PEXPIRE, set when a period starts), so it runs on Redis's own clock:
 * an absolute PEXPIREAT computed from the caller's clock would delete a live counter early when
 * the two clocks disagree (or the caller's clock is a test's), which would hand out a new quota.
 */
const CONSUME_LUA = `
local now = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local n = tonumber(ARGV[5])
local state = redis.call('HMGET', KEYS[1], 'start', 'used')
local start = tonumber(state[1])
local used = tonumber(state[2])
if start == nil or used == nil or now >= start + period then
  local allowed = math.min(n, limit)
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'used', allowed)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {allowed, allowed, ARGV[1]}
end
local allowed = math.max(0, math.min(n, limit - used))
if allowed > 0 then
  used = redis.call('HINCRBY', KEYS[1], 'used', allowed)
end
return {allowed, used, state[1]}
`;
const CONSUME_SHA = createHash('sha1').update(CONSUME_LUA).digest('hex');

/** Kept past the period's end, so a counter outlives its period and then goes away by itself. */
const EXPIRY_MARGIN_MS = 60 * 60 * 1000;

/**
 * Requests of one event-loop turn are grouped by key, time and policy, and each group is decided
 * by one script call: a busy key's requests cost Redis one script run per turn instead of one per
 * request, and this process one command. Within a group, requests are decided in arrival order,
 * as they would be one by one.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly batches = new TurnBatch((batch) => this.decideBatch(batch));

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** The braces are a hash tag: on a cluster, a key's counter lives on one slot. */
  private key(keyId: number): string {
    return `${this.keyPrefix}quota:{${keyId}}`;
  }

  consume(keyId: number, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return this.batches.add(keyId, now, policy);
  }

  private decideBatch(batch: PendingConsume[]): void {
    const groups = new Map<string, PendingConsume[]>();
    for (const request of batch) {
      const groupKey = `${request.keyId} ${request.now} ${request.policy.limit} ${request.policy.periodMs}`;
      const group = groups.get(groupKey);
      if (group) group.push(request);
      else groups.set(groupKey, [request]);
    }
    for (const group of groups.values()) void this.decide(group);
  }

  private async decide(group: PendingConsume[]): Promise<void> {
    const { keyId, now, policy } = group[0]!;
    const args = [String(now), String(policy.periodMs), String(policy.limit), String(Math.ceil(policy.periodMs) + EXPIRY_MARGIN_MS), String(group.length)];
    let reply: [number, number, string];
    try {
      reply = (await redisCall(() => this.evalConsume(this.key(keyId), args))) as [number, number, string];
    } catch (err) {
      for (const request of group) request.reject(err);
      return;
    }
    answerCounted(group, Number(reply[0]), Number(reply[1]), Number(reply[2]));
  }

  async usage(keyId: number): Promise<{ used: number; periodStart: number } | undefined> {
    const [start, used] = await redisCall(() => this.redis.hmget(this.key(keyId), 'start', 'used'));
    if (start == null || used == null) return undefined;
    return { used: Number(used), periodStart: Number(start) };
  }

  /** EVALSHA, and EVAL once when the server does not hold the script yet (restart, failover). */
  private async evalConsume(key: string, args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(CONSUME_SHA, 1, key, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return this.redis.eval(CONSUME_LUA, 1, key, ...args);
    }
  }
}
