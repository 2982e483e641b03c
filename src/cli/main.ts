#!/usr/bin/env -S node --max-semi-space-size=4 --min-semi-space-size=4 --heap-growing-percent=30
import { ConfigError } from '../config.js';
import { ingestCommand } from './ingest-command.js';
import { keysCommand } from './keys-command.js';
import { migrateCommand } from './migrate-command.js';
import { serveCommand } from './serve-command.js';
import { USAGE, UsageError } from './usage.js';

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve: serveCommand,
  ingest: ingestCommand,
  keys: keysCommand,
  migrate: migrateCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE.main);
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    console.error(name === undefined ? 'currency-rates: a command is needed' : `currency-rates: unknown command: ${name}`);
    console.error(USAGE.main);
    return 2;
  }
  try {
    await command(args);
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
