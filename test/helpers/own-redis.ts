import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { pollUntil, withTimeout } from './server-process.js';
import { tempDir } from './temp-dir.js';

/**
 * A redis-server of the test's own, on a port of its own, that the test may stop and start again
 * on the same port (the shared one at 6379 cannot be restarted). Stopped when the test ends.
 */
export interface OwnRedis {
  port: number;
  url: string;
  /** Starts the server (again) on `port`; resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it (SIGKILL: nothing is saved) and waits for the process to end. */
  stop(): Promise<void>;
  /** Sends the running server a signal: SIGSTOP stalls it with its connections open, SIGCONT resumes it. */
  signal(signal: NodeJS.Signals): void;
}

/**
 * A free port below the ephemeral range (32768 and up on Linux): the server is started on it
 * later, possibly again after a stop, and a port of the ephemeral range may meanwhile be taken as
 * the local end of any outgoing connection of a busy machine.
 */
async function stablePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      server.close();
      await once(server, 'close');
      return port;
    }
  }
}

export async function ownRedis(t: TestContext, args: string[] = ['--save', '', '--appendonly', 'no']): Promise<OwnRedis> {
  const port = await stablePort();
  const dir = tempDir(t, 'currency-rates-redis-');
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGKILL');
    await withTimeout(exited!, 5_000, 'redis-server to exit');
  };
  t.after(stop);
  const start = async () => {
    const spawned = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...args], { stdio: 'ignore' });
    child = spawned;
    exited = once(spawned, 'exit');
    await pollUntil(
      async () => {
        if (spawned.exitCode !== null) throw new Error(`redis-server exited with ${spawned.exitCode} (port ${port} taken?)`);
        const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        redis.on('error', () => {});
        try {
          await redis.connect();
          return (await redis.ping()) === 'PONG' ? true : undefined;
        } catch {
          return undefined;
        } finally {
          redis.disconnect();
        }
      },
      { timeoutMs: 10_000, intervalMs: 50, what: `redis-server on port ${port}` },
    );
  };
  return { port, url: `redis://127.0.0.1:${port}`, start, stop, signal: (signal) => void child?.kill(signal) };
}

/**
 * A TCP relay to PostgreSQL that keeps every byte the client sent, to see which queries the
 * server received; `cut()` and `restore()` take the database away and bring it back.
 */
export interface TappedRelay {
  port: number;
  /** Everything clients sent through the relay since `clear()`. */
  sent(): Buffer;
  clear(): void;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function tappedRelay(t: TestContext, targetHost: string, targetPort: number): Promise<TappedRelay> {
  const sockets = new Set<Socket>();
  let chunks: Buffer[] = [];
  let server: ReturnType<typeof createServer> | undefined;
  const listen = async (port: number) => {
    const s = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    s.listen(port, '127.0.0.1');
    await once(s, 'listening');
    server = s;
    const address = s.address();
    return typeof address === 'object' && address ? address.port : port;
  };
  const cut = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  const port = await listen(0);
  t.after(cut);
  return {
    port,
    sent: () => Buffer.concat(chunks),
    clear: () => {
      chunks = [];
    },
    cut,
    restore: async () => {
      if (!server) await listen(port);
    },
    close: cut,
  };
}
