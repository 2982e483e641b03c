import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaDecision, QuotaPolicy } from '../../domain/quota.js';
import type { ActiveKey } from '../../domain/api-keys.js';
import { StoreUnavailableError, type KeyStore, type QuotaKey, type QuotaStore } from '../ports.js';
import { answerCounted } from '../counted-requests.js';
import { TurnBatch, type PendingConsume } from '../turn-batch.js';
import { RemoteClock } from '../remote-clock.js';
import { redisCall } from './redis-errors.js';

/**
 * The decisions for `n` requests of one key at one time in one script, so they are atomic on the
 * server whatever the number of processes: exactly what `n` single requests would get in a row.
 * It touches exactly KEYS[1], a hash { start, used }, which keeps it valid on Redis Cluster.
 * ARGV: now, periodMs, limit, ttlMs, n, deadline. Replies { allowed (how many of the n are
 * counted), used (after them), start (as text: never through a Lua float), Redis's TIME in ms }.
 * - past the deadline (Redis's TIME, ms; 0 for none): nothing counted, allowed -1 (see decide);
 * - no counter, or the period is over: a new period starts at `now`, up to `limit` counted;
 * - otherwise as many as the period has left are counted, the rest refused;
 * - nothing counted: nothing written.
 * The expiry is relative (PEXPIRE, set when a period starts), so it runs on Redis's own clock:
 * an absolute PEXPIREAT computed from the caller's clock would delete a live counter early when
 * the two clocks disagree (or the caller's clock is a test's), which would hand out a new quota.
 */
const CONSUME_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local redisNow = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = tonumber(ARGV[6])
if deadline > 0 and redisNow > deadline then
  return {-1, 0, '', redisNow}
end
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
  return {allowed, allowed, ARGV[1], redisNow}
end
local allowed = math.max(0, math.min(n, limit - used))
if allowed > 0 then
  used = redis.call('HINCRBY', KEYS[1], 'used', allowed)
end
return {allowed, used, state[1], redisNow}
`;
const CONSUME_SHA = createHash('sha1').update(CONSUME_LUA).digest('hex');

/**
 * A script counts only if it runs at least this long (Redis's clock) before the instance gives
 * up on it: time for its reply to come back.
 */
const DEADLINE_MARGIN_MS = 250;

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
export async function adoptLegacyCounters(redis: Redis, keyPrefix: string, activeKeys: ReadonlyMap<string, ActiveKey>): Promise<AdoptionReport> {
  const report: AdoptionReport = { moved: 0, dropped: 0 };
  const keys = [...activeKeys].map(([hash, { id }]) => [hash, id] as const);
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
 *
 * A request answered 503 is never charged, even when Redis runs its script after the instance
 * gave up waiting (a stalled Redis, SIGSTOP, runs every queued command when it resumes):
 * - each script carries a deadline on Redis's own clock: a lower bound of Redis's TIME when the
 *   command is handed to the client (RemoteClock), plus the client's command timeout, minus a
 *   margin. The client's timer starts no earlier than that (auto-pipelining and a busy pipeline
 *   only delay the send), so Redis's clock reaches the deadline at least the margin before the
 *   instance gives up, whatever the two machines' wall clocks say: both ends of the comparison
 *   are Redis's TIME, and the offset to the local monotonic clock is re-read from every reply
 *   and from TIME after each (re)connect. A script past its deadline counts nothing and replies
 *   -1, answered 503 if it still arrives in time;
 * - a command the client gave up on is never resent (see open-redis-quota.ts).
 * What remains: a script that ran in time but whose reply came after the instance gave up (the
 * reply held longer than the margin, this event loop blocked past its timer, or the connection
 * dropped first) keeps its count.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly batches = new TurnBatch((batch) => this.decideBatch(batch));
  private readonly clock = new RemoteClock();
  private calibrating: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /** Where `usage` finds the hash of a key given by id alone (the key store); without it, only by QuotaKey. */
    private readonly keys?: Pick<KeyStore, 'activeKeys'>,
  ) {
    // A new connection may reach another server (failover) with another clock.
    redis.on('ready', () => this.clock.reset());
  }

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

  /** The client's own command timeout: the moment the instance answers 503. */
  private timeoutMs(): number | undefined {
    const timeout = this.redis.options.commandTimeout;
    return typeof timeout === 'number' && timeout > 0 ? timeout : undefined;
  }

  /**
   * The deadline (Redis's clock, ms) of a command handed to the client now; 0 without a timeout.
   * A promise only while Redis's clock has to be read first (after a (re)connect or a quiet minute).
   */
  private deadline(): number | Promise<number> {
    const timeout = this.timeoutMs();
    if (timeout === undefined) return 0;
    const redisNow = this.clock.lowerBound();
    if (redisNow !== undefined) return Math.floor(redisNow) + timeout - DEADLINE_MARGIN_MS;
    return (async () => {
      await (this.calibrating ??= this.calibrate().finally(() => (this.calibrating = undefined)));
      const read = this.clock.lowerBound();
      if (read === undefined) throw new StoreUnavailableError('Redis', { cause: new Error("no reading of Redis's clock") });
      return Math.floor(read) + timeout - DEADLINE_MARGIN_MS;
    })();
  }

  private async calibrate(): Promise<void> {
    const [seconds, micros] = await redisCall(() => this.redis.time());
    this.clock.observe(Number(seconds) * 1000 + Math.floor(Number(micros) / 1000));
  }

  private async decide(group: PendingConsume[]): Promise<void> {
    const { key, now, policy } = group[0]!;
    const counter = counterName(this.keyPrefix, key.hash);
    let reply: unknown[];
    try {
      const pending = this.deadline();
      const deadline = typeof pending === 'number' ? pending : await pending;
      const args = [String(now), String(policy.periodMs), String(policy.limit), String(Math.ceil(policy.periodMs) + EXPIRY_MARGIN_MS), String(group.length), String(deadline)];
      reply = (await redisCall(() => evalScript(this.redis, CONSUME_LUA, CONSUME_SHA, [counter], args))) as unknown[];
      this.clock.observe(Number(reply[3]));
      if (Number(reply[0]) < 0) throw new StoreUnavailableError('Redis', { cause: new Error('the quota script ran past its deadline') });
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
    for (const [hash, { id }] of await this.keys.activeKeys()) if (id === keyId) return hash;
    return undefined;
  }
}
