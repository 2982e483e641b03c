import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { superviseWorkers } from '../cluster.js';
import { loadConfig } from '../config.js';
import { createLogger, flushLogger } from '../logger.js';
import { USAGE } from './usage.js';

export async function serveCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(USAGE.serve);
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) return superviseWorkers(config.workers, createLogger(config.logLevel));

  // Loaded here, not above: a supervising primary never loads the server (Fastify, the stores).
  const { startServer } = await import('../server.js');
  const log = createLogger(config.logLevel);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config, log);
  } catch (err) {
    // What was logged on the way (a failed first ingestion, say) explains the failure: write it out.
    await flushLogger(log);
    throw err;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests and stopping`);
    server.close().then(
      () => flushLogger(log).then(() => process.exit(0)),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        void flushLogger(log).then(() => process.exit(1));
      },
    );
  };
  // `on`, not `once`: a second signal while draining (systemd signals a worker's whole group, and
  // its primary relays the signal) must not fall back to the default action, which kills at once.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
