import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { KeyStore, QuotaKey, QuotaStore } from '../ports.js';
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

/**
 * Moves a counter from its legacy name (by key id) to its name by key hash, in one step: only
 * when the legacy one exists and the new one does not yet (RENAME keeps the fields and the expiry).
 * A legacy counter whose key already has a new one (served by an upgraded instance meanwhile) is
 * dropped: the new one is the key's count. Either way the legacy name is gone, so running the
 * step again, or on several instances at once, changes nothing more.
 * KEYS: legacy, new. Replies 1 (moved), 0 (nothing to move), -1 (dropped).
 */
const ADOPT_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return -1
end
redis.call('RENAME', KEYS[1], KEYS[2])
return 1
`;
const ADOPT_SHA = createHash('sha1').update(ADOPT_LUA).digest('hex');

/** Scripts at once in flight while adopting legacy counters (pipelined into few writes). */
const ADOPT_CHUNK = 1_000;

/** Kept past the period's end, so a counter outlives its period and then goes away by itself. */
const EXPIRY_MARGIN_MS = 60 * 60 * 1000;

/**
 * Where a key's counter lives: under the key's hash, unique across databases and deployments (a
 * key id is not: a fresh or restored database hands out id 1 again). The braces are a hash tag:
 * on a cluster, a key's counter lives on one slot.
 */
export function counterName(keyPrefix: string, keyHash: string): string {
  return `${keyPrefix}quota:{${keyHash}}`;
}

/** The name earlier versions gave counters: by key id, which two databases share. Only read to move it. */
export function legacyCounterName(keyPrefix: string, keyId: number): string {
  return `${keyPrefix}quota:{${keyId}}`;
}

/** What the adoption of legacy counters did (see adoptLegacyCounters). */
export interface AdoptionReport {
  /** Legacy counters moved to their key's hash. */
  moved: number;
  /** Legacy counters dropped because their key already had a counter under its hash. */
  dropped: number;
}

/**
 * The start-up step from counters by key id to counters by key hash: for every unrevoked key of
 * the key store (hash → id), its legacy counter, if any, becomes its counter under its hash,
 * atomically per key, so a count survives the upgrade. Idempotent, and safe on several instances
 * at once. Both names are in the one script, so on a Redis Cluster (the names hash to different
 * slots) it would be refused; the store connects to a single Redis server.
 * A revoked key's legacy counter is left to expire: a revoked key is never counted again.
 */
export async function adoptLegacyCounters(redis: Redis, keyPrefix: string, activeKeys: ReadonlyMap<string, number>): Promise<AdoptionReport> {
  const report: AdoptionReport = { moved: 0, dropped: 0 };
  const keys = [...activeKeys];
  for (let i = 0; i < keys.length; i += ADOPT_CHUNK) {
    const replies = await Promise.all(
      keys.slice(i, i + ADOPT_CHUNK).map(([hash, id]) =>
        redisCall(() => evalScript(redis, ADOPT_LUA, ADOPT_SHA, [legacyCounterName(keyPrefix, id), counterName(keyPrefix, hash)], [])),
      ),
    );
    for (const reply of replies) {
      if (Number(reply) === 1) report.moved++;
      else if (Number(reply) === -1) report.dropped++;
    }
  }
  return report;
}

/** EVALSHA, and EVAL once when the server does not hold the script yet (restart, failover). */
async function evalScript(redis: Redis, lua: string, sha: string, keys: string[], args: string[]): Promise<unknown> {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
    return redis.eval(lua, keys.length, ...keys, ...args);
  }
}

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
    /** Where `usage` finds the hash of a key given by id alone (the key store); without it, only by QuotaKey. */
    private readonly keys?: Pick<KeyStore, 'activeKeys'>,
  ) {}

  consume(key: QuotaKey, now: number, policy: QuotaPolicy): Promise<QuotaDecision> {
    return this.batches.add(key, now, policy);
  }

  private decideBatch(batch: PendingConsume[]): void {
    const groups = new Map<string, PendingConsume[]>();
    for (const request of batch) {
      const groupKey = `${request.key.hash} ${request.now} ${request.policy.limit} ${request.policy.periodMs}`;
      const group = groups.get(groupKey);
      if (group) group.push(request);
      else groups.set(groupKey, [request]);
    }
    for (const group of groups.values()) void this.decide(group);
  }

  private async decide(group: PendingConsume[]): Promise<void> {
    const { key, now, policy } = group[0]!;
    const args = [String(now), String(policy.periodMs), String(policy.limit), String(Math.ceil(policy.periodMs) + EXPIRY_MARGIN_MS), String(group.length)];
    let reply: [number, number, string];
    try {
      reply = (await redisCall(() => evalScript(this.redis, CONSUME_LUA, CONSUME_SHA, [counterName(this.keyPrefix, key.hash)], args))) as [number, number, string];
    } catch (err) {
      for (const request of group) request.reject(err);
      return;
    }
    answerCounted(group, Number(reply[0]), Number(reply[1]), Number(reply[2]));
  }

  async usage(key: QuotaKey | number): Promise<{ used: number; periodStart: number } | undefined> {
    const hash = typeof key === 'number' ? await this.hashOf(key) : key.hash;
    if (hash === undefined) return undefined;
    const [start, used] = await redisCall(() => this.redis.hmget(counterName(this.keyPrefix, hash), 'start', 'used'));
    if (start == null || used == null) return undefined;
    return { used: Number(used), periodStart: Number(start) };
  }

  /** The hash of the unrevoked key with this id (operators and tests name keys by id). */
  private async hashOf(keyId: number): Promise<string | undefined> {
    if (!this.keys) throw new Error('RedisQuotaStore.usage: a key given by id alone needs the key store');
    for (const [hash, id] of await this.keys.activeKeys()) if (id === keyId) return hash;
    return undefined;
  }
}
