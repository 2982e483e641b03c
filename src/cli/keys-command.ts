import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey } from '../domain/api-keys.js';
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

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.keys);
  const name = checkedName(values.name);
  const key = generateApiKey();
  const record = await withStores((stores) => stores.keys.create(name, hashApiKey(key), new Date()));
  console.log(`Created key ${record.id}${record.name ? ` (${record.name})` : ''}. It is shown only this once:`);
  console.log(key);
}

async function list(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.keys);
  const records = await withStores((stores) => stores.keys.list());
  console.log(['ID', 'NAME', 'CREATED', 'STATUS'].join('\t'));
  for (const record of records) {
    const status = record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active';
    console.log([record.id, record.name ?? '-', record.createdAt.toISOString(), status].join('\t'));
  }
}

async function revoke(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { help: { type: 'boolean' } }, strict: true, allowPositionals: true });
  if (values.help) return void console.log(USAGE.keys);
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0 || !/^[1-9]\d{0,15}$/.test(id)) {
    throw new UsageError('revoke takes one key id (a positive integer, see "keys list")', USAGE.keys);
  }
  const revoked = await withStores((stores) => stores.keys.revoke(Number(id), new Date()));
  if (!revoked) throw new Error(`no active key with id ${id}`);
  console.log(`Revoked key ${id}`);
}

export async function keysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    if (sub === undefined) throw new UsageError('keys needs a subcommand', USAGE.keys);
    return void console.log(USAGE.keys);
  }
  const commands: Record<string, (args: string[]) => Promise<void>> = { create, list, revoke };
  const command = commands[sub];
  if (!command) throw new UsageError(`unknown keys subcommand: ${sub}`, USAGE.keys);
  await command(rest);
}
