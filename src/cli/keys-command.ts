import { parseArgs } from 'node:util';
import { generateApiKey, hashApiKey } from '../domain/api-keys.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.keys);
  const key = generateApiKey();
  const record = await withStores((stores) => stores.keys.create(values.name ?? null, hashApiKey(key), new Date()));
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
