import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey, MAX_KEY_QUOTA } from '../domain/api-keys.js';
import { keyListings, keyTable } from './keys-list.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

const NAME_LENGTH = 100;
/** Control characters (C0, DEL, C1: line breaks, escapes), format characters (bidi overrides, zero widths), line and paragraph separators, lone surrogates. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * A key's name is shown by `keys list` in a terminal and in logs: one line of visible text, so
 * that no name can break a line, move the cursor or recolour what follows. Never echoed back
 * when refused, for the same reason.
 */
function checkedName(name: string | undefined): string | null {
  if (name === undefined) return null;
  if (name.trim() === '' || [...name].length > NAME_LENGTH || UNPRINTABLE.test(name)) {
    throw new UsageError(
      `--name must be 1 to ${NAME_LENGTH} printable characters, not only spaces (no control characters, line breaks or terminal escapes)`,
      USAGE.keys,
    );
  }
  return name;
}

/** A key's own quota: plain decimal digits (as QUOTA_LIMIT), 1 to MAX_KEY_QUOTA; `default` when `allowDefault` (null). */
function checkedQuota(quota: string, allowDefault: boolean): number | null {
  if (allowDefault && quota === 'default') return null;
  if (!/^[1-9]\d{0,9}$/.test(quota) || Number(quota) > MAX_KEY_QUOTA) {
    const also = allowDefault ? ', or default (back to QUOTA_LIMIT)' : '';
    throw new UsageError(`--quota must be a whole number from 1 to ${MAX_KEY_QUOTA}${also}`, USAGE.keys);
  }
  return Number(quota);
}

/** One key id given as the only positional argument. */
function checkedId(positionals: string[], what: string): number | undefined {
  const [id, ...extra] = positionals;
  // A safe integer: a larger one would be rounded, and another key's id reported.
  if (extra.length > 0 || (id !== undefined && !(/^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id))))) {
    throw new UsageError(`${what} takes one key id (a positive integer, see "keys list")`, USAGE.keys);
  }
  return id === undefined ? undefined : Number(id);
}

const quotaText = (quota: number | null) => (quota === null ? 'the default quota (QUOTA_LIMIT)' : `a quota of ${quota} requests per period`);

/**
 * `--quota -3` read as `--quota=-3`: parseArgs refuses a value starting with a dash as ambiguous,
 * which would hide the quota's own message (a whole number from 1 up).
 */
function negativeQuotaJoined(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--quota' && /^-\d/.test(args[i + 1] ?? '')) joined.push(`--quota=${args[++i]}`);
    else joined.push(args[i]!);
  }
  return joined;
}

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({ args: negativeQuotaJoined(args), options: { name: { type: 'string' }, quota: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.keys);
  const name = checkedName(values.name);
  const quota = values.quota === undefined ? null : checkedQuota(values.quota, false);
  const key = generateApiKey();
  const record = await withStores((stores) => stores.keys.create(name, hashApiKey(key), new Date(), quota));
  console.log(`Created key ${record.id}${record.name ? ` (${record.name})` : ''} with ${quotaText(record.quota)}. It is shown only this once:`);
  console.log(key);
}

async function list(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.keys);
  const listings = await withStores((stores, config) => keyListings(stores, config.quota, Date.now()), { withQuota: true });
  console.log(values.json ? JSON.stringify(listings) : keyTable(listings));
}

async function update(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: negativeQuotaJoined(args), options: { quota: { type: 'string' }, help: { type: 'boolean' } }, strict: true, allowPositionals: true });
  if (values.help) return void console.log(USAGE.keys);
  const id = checkedId(positionals, 'update');
  if (id === undefined) throw new UsageError('update takes one key id (a positive integer, see "keys list")', USAGE.keys);
  if (values.quota === undefined) throw new UsageError('update needs --quota Q (or --quota default)', USAGE.keys);
  const quota = checkedQuota(values.quota, true);
  const updated = await withStores((stores) => stores.keys.setQuota(id, quota));
  if (!updated) throw new Error(`no active key with id ${id}`);
  console.log(`Key ${id} now has ${quotaText(quota)}; running servers apply it within seconds`);
}

async function revoke(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { name: { type: 'string' }, help: { type: 'boolean' } }, strict: true, allowPositionals: true });
  if (values.help) return void console.log(USAGE.keys);
  const id = checkedId(positionals, 'revoke');
  const name = checkedName(values.name);
  if ((id === undefined) === (name === null)) throw new UsageError('revoke takes one key id, or --name NAME (not both)', USAGE.keys);
  const revoked = await withStores(async (stores) => {
    if (id !== undefined) return (await stores.keys.revoke(id, new Date())) ? id : new Error(`no active key with id ${id}`);
    // By name only when exactly one active key bears it: a guess would revoke a customer's key.
    const named = (await stores.keys.list()).filter((key) => key.revokedAt === null && key.name === name);
    if (named.length === 0) return new Error(`no active key named "${name}"`);
    if (named.length > 1) return new Error(`${named.length} active keys are named "${name}" (ids ${named.map((key) => key.id).join(', ')}); revoke one by its id`);
    const only = named[0]!.id;
    return (await stores.keys.revoke(only, new Date())) ? only : new Error(`no active key named "${name}"`);
  });
  if (revoked instanceof Error) throw revoked;
  console.log(`Revoked key ${revoked}${name === null ? '' : ` (${name})`}`);
}

export async function keysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    if (sub === undefined) throw new UsageError('keys needs a subcommand', USAGE.keys);
    return void console.log(USAGE.keys);
  }
  const commands: Record<string, (args: string[]) => Promise<void>> = { create, list, update, revoke };
  const command = Object.hasOwn(commands, sub) ? commands[sub] : undefined;
  if (!command) throw new UsageError(`unknown keys subcommand: ${sub}`, USAGE.keys);
  await command(rest);
}
