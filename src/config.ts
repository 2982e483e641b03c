import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CURRENCY_CODE } from './domain/currencies.js';
import type { QuotaPolicy } from './domain/quota.js';
import { ALL_SOURCES, ALL_SOURCES_LEADER, defaultTracked, FEED_NAMES, SOURCE_IDS } from './ingest/sources/registry.js';

/**
 * A numeric setting: plain decimal digits, nothing else (DECISIONS §12: `0x10`, `1e3`, `10.0`, ` 5`,
 * `+5` stop the start). Number() would read all of those, and blanks alone as 0, so a setting
 * would run with a number the operator did not write; the spelling is checked before the range.
 */
const PLAIN_DECIMAL = /^(0|[1-9]\d*)$/;
const PLAIN_DECIMAL_MESSAGE = 'must be a plain decimal integer';
const integer = (min: number, max: number) =>
  z
    .string()
    .regex(PLAIN_DECIMAL, `${PLAIN_DECIMAL_MESSAGE} (${min} to ${max})`)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** SOURCES=all (DECISIONS §15): every source, in the registry's documented priority (ALL_SOURCES). */
const isAll = (list: string | undefined) => list?.trim().toLowerCase() === 'all';

/**
 * SOURCES (DECISIONS §9): the enabled rate sources, highest priority first, or `all`. Each problem
 * of the list is its own message, so an operator fixes them all in one go.
 */
const sourceList = z
  .string()
  .default('ecb')
  .transform((list) => (isAll(list) ? [...ALL_SOURCES] : list.split(',').map((id) => id.trim().toLowerCase())))
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (id === '') ctx.addIssue({ code: 'custom', message: 'has an empty item (ids are joined by single commas)' });
      else if (!SOURCE_IDS.includes(id)) ctx.addIssue({ code: 'custom', message: `unknown source "${id}" (known: ${SOURCE_IDS.join(', ')})` });
      else if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `lists "${id}" twice` });
      seen.add(id);
    }
  });

/** sqlite: with a path, or a PostgreSQL URL that parses: refused here, naming the variable, not later by a driver. */
function isDatabaseUrl(value: string): boolean {
  if (value.startsWith('sqlite:')) return value.length > 'sqlite:'.length;
  return /^postgres(ql)?:\/\//.test(value) && URL.canParse(value);
}

const schema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/currency-rates.db')
    .refine(isDatabaseUrl, 'must be sqlite:PATH or a postgres:// URL'),
  QUOTA_LIMIT: integer(1, 1_000_000_000).default(1000),
  QUOTA_PERIOD_DAYS: integer(1, 3650).default(30),
  // Unset: what the enabled sources publish (defaultTracked).
  CURRENCIES: z
    .string()
    .optional()
    .transform((list) => list?.split(',').map((code) => code.trim().toUpperCase()))
    .refine((codes) => codes === undefined || codes.every((code) => CURRENCY_CODE.test(code)), 'must be a comma-separated list of 3-letter codes'),
  SOURCES: sourceList,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INGEST_ON_EMPTY: z
    .string()
    .default('ecb-hist')
    .refine((value) => value === 'off' || FEED_NAMES.includes(value), `must be one of ${[...FEED_NAMES, 'off'].join(', ')}`),
  INGEST_SCHEDULE: z
    .string()
    .default('auto')
    .refine((value) => value === 'auto' || value === 'off' || /^([01]\d|2[0-3]):[0-5]\d$/.test(value), 'must be auto, HH:MM (UTC) or off'),
  // Read only to say that it is no longer used (Config.notices); still refused when malformed.
  INGEST_SCHEDULE_SOURCE: z.enum(['ecb-daily', 'ecb-90d', 'ecb-hist']).optional(),
  REFRESH_INTERVAL_MS: integer(100, 5000).default(1000),
  RESPONSE_CACHE_MB: integer(1, 4096).default(8),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\//.test(value) && URL.canParse(value), 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().default('currency-rates:'),
  WORKERS: z
    .string()
    .default('1')
    .refine((value) => value === 'auto' || /^[1-9]\d{0,2}$/.test(value), `${PLAIN_DECIMAL_MESSAGE} (1 to 999) or auto`)
    .transform((value) => (value === 'auto' ? availableParallelism() : Number(value))),
  // DECISIONS §16: a key's name, as `keys create --name` gives it.
  COMPAT_KEY: z
    .string()
    .refine((name) => [...name].length <= 100 && !/\p{C}/u.test(name), 'must be the name of a key: 1 to 100 printable characters')
    .optional(),
  METRICS: z.enum(['on', 'off']).default('on'),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable characters without spaces')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  quota: QuotaPolicy;
  currencies: string[];
  /** Enabled rate source ids (registry.ts), highest priority first; `ecb` alone by default. */
  sources: string[];
  /**
   * SOURCES=all: the source each code's home bank ranks right after (the ECB), ahead of the rest
   * of `sources`; undefined when SOURCES lists ids (their order alone).
   */
  homeFirstAfter: string | undefined;
  logLevel: string;
  /** The named feed (SourceAdapter.feeds) fetched at start when its source has nothing stored, or off. */
  ingestOnEmpty: string;
  /**
   * The daily ingestion of every enabled source: `auto`, each after its own publication time;
   * a number, each at that many minutes after midnight UTC; or `off`.
   */
  ingestSchedule: 'auto' | 'off' | number;
  refreshIntervalMs: number;
  /** The answers kept to be sent again, heavy ones being sent included: their bound in bytes (response-cache.ts). */
  responseCacheBytes: number;
  /** Quota counters in Redis instead of the database. */
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  /** Worker processes sharing the port (node:cluster); 1 runs in-process. */
  workers: number;
  /** GET /metrics: off (404), or on and guarded by a bearer token when one is set (see metricsAccess). */
  metrics: { enabled: boolean; token: string | undefined };
  /** Settings given that no longer do anything, each saying why: the server logs them at start. */
  notices: string[];
  /** COMPAT_KEY: the name of the key keyless Frankfurter requests are charged to (DECISIONS §16). */
  compatKey: string | undefined;
}

/**
 * DATABASE_URL as a log line may show it: a SQLite path made absolute (the file actually
 * opened), a PostgreSQL URL without its password and query (which may carry one too).
 */
export function databaseForLog(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    return path === ':memory:' ? databaseUrl : `sqlite:${resolve(path)}`;
  }
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return databaseUrl.replace(/\/\/.*@/, '//').replace(/\?.*$/, '');
  }
}

/**
 * Whether HOST names the loopback interface only: `localhost`, 127.0.0.0/8 (also as an
 * IPv4-mapped IPv6 address) or ::1, brackets allowed. Anything else (0.0.0.0, ::, a name) may be
 * reachable from other machines.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) !== 6) return false;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name)?.[1];
  if (mapped !== undefined) return mapped.startsWith('127.');
  return /^(?:0{0,4}:){2,7}0{0,3}1$/.test(name) || name === '::1';
}

/**
 * DECISIONS §11, how GET /metrics answers: `off` (METRICS=off: an unknown path); `token` (only
 * with METRICS_TOKEN as a bearer token); `loopback` (no token set, HOST is loopback: answered
 * as it is); `withheld` (no token set and HOST may be reachable from elsewhere: an unknown path,
 * and the start-up log says why).
 */
export type MetricsAccess = 'off' | 'token' | 'loopback' | 'withheld';

export function metricsAccess(config: Pick<Config, 'host' | 'metrics'>): MetricsAccess {
  if (!config.metrics.enabled) return 'off';
  if (config.metrics.token !== undefined) return 'token';
  return isLoopbackHost(config.host) ? 'loopback' : 'withheld';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** INGEST_SCHEDULE as validated: auto, off, or HH:MM as minutes after midnight UTC. */
function scheduleOf(value: string): Config['ingestSchedule'] {
  if (value === 'auto' || value === 'off') return value;
  const [hours, minutes] = value.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/** Reads the environment once at start; a bad variable stops start-up with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  return {
    port: vars.PORT,
    host: vars.HOST,
    databaseUrl: vars.DATABASE_URL,
    quota: { limit: vars.QUOTA_LIMIT, periodMs: vars.QUOTA_PERIOD_DAYS * 86_400_000 },
    currencies: vars.CURRENCIES ?? defaultTracked(vars.SOURCES),
    sources: vars.SOURCES,
    homeFirstAfter: isAll(present['SOURCES']) ? ALL_SOURCES_LEADER : undefined,
    logLevel: vars.LOG_LEVEL,
    ingestOnEmpty: vars.INGEST_ON_EMPTY,
    ingestSchedule: scheduleOf(vars.INGEST_SCHEDULE),
    refreshIntervalMs: vars.REFRESH_INTERVAL_MS,
    responseCacheBytes: vars.RESPONSE_CACHE_MB * 1024 * 1024,
    redisUrl: vars.REDIS_URL,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    workers: vars.WORKERS,
    metrics: { enabled: vars.METRICS === 'on', token: vars.METRICS_TOKEN },
    compatKey: vars.COMPAT_KEY,
    notices:
      vars.INGEST_SCHEDULE_SOURCE === undefined
        ? []
        : [
            'INGEST_SCHEDULE_SOURCE is no longer used: the daily run fetches each source\'s latest publication ' +
              '(the ECB\'s daily file) and the days it missed (the ECB\'s from its 90-day file)',
          ],
  };
}
