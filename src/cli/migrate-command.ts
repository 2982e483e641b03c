import { parseArgs } from 'node:util';
import { withStores } from './open-cli-stores.js';
import { USAGE } from './usage.js';

export async function migrateCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.migrate);
  const applied = await withStores(async (stores) => stores.appliedMigrations);
  console.log(applied.length ? `applied ${applied.join(', ')}` : 'schema is up to date');
}
