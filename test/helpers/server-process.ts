import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAIN_JS } from './cli.js';

/**
 * `currency-rates serve` in its own process, the way an operator runs it. PORT=0 cannot be read
 * back from outside, so a free port is picked first (listen on 0, close) and the server is
 * started on it; should another process grab the port in between, it is tried again on another.
 */
export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has ended. */
  exited: Promise<ExitStatus>;
  /** Sends `signal` and waits (at most `timeoutMs`) for the process to end. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ExitStatus>;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Ports this process has handed out. Tests of one file run concurrently: a port picked for a
 * server that is still loading its store is free in the operating system's eyes, and handing it
 * out again can put two servers on one port: the loser exits with EADDRINUSE, but its test's
 * ready probe may already have been answered by the winner, and the test then talks to another
 * test's store.
 */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    server.close();
    await once(server, 'close');
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    if (handedOut.has(address.port)) continue;
    handedOut.add(address.port);
    return address.port;
  }
}

/** Rejects after `ms` with a message saying what was awaited. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `probe` every `intervalMs` until it returns something other than undefined, or throws
 * after `timeoutMs` (naming `what` and the last observation). Returns the value and the wait.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; what: string; last?: () => string },
): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await probe();
    const ms = performance.now() - started;
    if (value !== undefined) return { value, ms };
    if (ms > options.timeoutMs) {
      throw new Error(`timed out after ${Math.round(ms)} ms waiting for ${options.what}${options.last ? `; last: ${options.last()}` : ''}`);
    }
    await sleep(options.intervalMs ?? 50);
  }
}

function launch(env: NodeJS.ProcessEnv, port: number, stdoutFile: string | undefined) {
  const outFd = stdoutFile === undefined ? undefined : openSync(stdoutFile, 'a');
  const child = spawn(process.execPath, [MAIN_JS, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', outFd ?? 'pipe', 'pipe'],
  });
  // The child has its own copy.
  if (outFd !== undefined) closeSync(outFd);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<ExitStatus>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, exited, stdout: () => (stdoutFile === undefined ? out : readFileSync(stdoutFile, 'utf8')), stderr: () => err };
}

/**
 * Spawns `main.js serve` with `env` (see serviceEnv) and resolves once it answers HTTP (any
 * status: the probe path is unknown, so it needs no key and counts against no quota). The process
 * is killed when the test ends if it is still running.
 */
export async function spawnServer(
  t: TestContext,
  env: NodeJS.ProcessEnv,
  options: {
    readyTimeoutMs?: number;
    /**
     * A file to take the server's stdout instead of a pipe (`stdout()` then reads it): what a
     * process writes through C's stdio (native code's own prints) may reach a pipe only in part.
     */
    stdoutFile?: string;
  } = {},
): Promise<ServerProcess> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const run = launch(env, port, options.stdoutFile);
    let ended: ExitStatus | undefined;
    void run.exited.then((status) => (ended = status));
    t.after(async () => {
      if (ended) return;
      run.child.kill('SIGKILL');
      await withTimeout(run.exited, 5000, 'a killed server to exit').catch(() => undefined);
    });
    const url = `http://127.0.0.1:${port}`;
    const ready = await pollUntil(
      async () => {
        if (ended) return 'ended' as const;
        try {
          await (await fetch(`${url}/__test_ready_probe__`, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
          return 'ready' as const;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: readyTimeoutMs, intervalMs: 50, what: `the server on port ${port} to answer`, last: () => run.stderr() },
    );
    if (ready.value === 'ended') {
      if (/EADDRINUSE/.test(run.stderr()) && attempt < 3) continue;
      throw new Error(`the server exited before answering (${JSON.stringify(ended)}):\n${run.stdout()}\n${run.stderr()}`);
    }
    return {
      url,
      port,
      child: run.child,
      stdout: run.stdout,
      stderr: run.stderr,
      exited: run.exited,
      stop: async (signal = 'SIGTERM', timeoutMs = 10_000) => {
        if (!ended) run.child.kill(signal);
        return withTimeout(run.exited, timeoutMs, `the server to exit after ${signal}`);
      },
    };
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** GET with the key (if any) as a Bearer token; bounded by `timeoutMs`. */
export async function apiGet(baseUrl: string, path: string, key?: string, timeoutMs = 10_000): Promise<Answer> {
  const response = await fetch(baseUrl + path, {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The processes `pid` started (a WORKERS primary's workers). */
export function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

/** Waits (at most 10 s) until the server's stdout holds `pattern`; a timeout shows the output's end. */
export async function untilLogged(server: ServerProcess, pattern: RegExp, what: string): Promise<void> {
  await pollUntil(async () => (pattern.test(server.stdout()) ? true : undefined), {
    timeoutMs: 10_000, intervalMs: 10, what, last: () => server.stdout().slice(-2000),
  });
}

/** Waits until `count` workers of a WORKERS server have logged that they listen. */
export async function workersListening(server: ServerProcess, count: number): Promise<void> {
  const listening = () => server.stdout().match(/"msg":"Server listening at/g)?.length ?? 0;
  await pollUntil(async () => (listening() >= count ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: `${count} workers listening` });
}
