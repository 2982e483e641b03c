#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { USAGE, UsageError } from './usage.js';

type Command = (args: string[]) => Promise<void>;

/**
 * Each command's modules load only when it runs: a start, or a supervising primary, loads no
 * other's. A Map, so a name like `constructor` finds nothing rather than an object's property.
 */
const COMMANDS = new Map<string, () => Promise<Command>>([
  ['serve', async () => (await import('./serve-command.js')).serveCommand],
  ['ingest', async () => (await import('./ingest-command.js')).ingestCommand],
  ['keys', async () => (await import('./keys-command.js')).keysCommand],
  ['sources', async () => (await import('./sources-command.js')).sourcesCommand],
  ['migrate', async () => (await import('./migrate-command.js')).migrateCommand],
]);

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE.main);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    // package.json ships with the package, beside dist/ (this file is dist/src/cli/main.js).
    const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    console.log(packageJson.version);
    return 0;
  }
  const loadCommand = name === undefined ? undefined : COMMANDS.get(name);
  if (!loadCommand) {
    console.error(name === undefined ? 'currency-rates: a command is needed' : `currency-rates: unknown command: ${name}`);
    console.error(USAGE.main);
    return 2;
  }
  try {
    await (await loadCommand())(args);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`currency-rates ${name}: ${err.message}\n\n${err.usage}`);
      return 2;
    }
    // parseArgs reports unknown or malformed flags with these codes.
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('ERR_PARSE_ARGS')) {
      console.error(`currency-rates ${name}: ${(err as Error).message}\n\n${USAGE[name as keyof typeof USAGE]}`);
      return 2;
    }
    const cause = (err as Error).cause;
    const detail = cause instanceof Error && !(err instanceof ConfigError) ? ` (${cause.message})` : '';
    console.error(`currency-rates ${name}: ${(err as Error).message}${detail}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  // serve keeps running until a signal; every other command ends here, even if an idle
  // keep-alive socket of a download would hold the event loop open.
  if (code !== 0 || process.argv[2] !== 'serve') process.exit(code);
});
