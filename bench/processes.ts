import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MAIN_JS = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** How the server is run: as `npm start` runs it. */
export const SERVE = [MAIN_JS, 'serve'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Running {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first answer. */
  startMs: number;
  /**
   * Aborted if the process exits before stop() is called, with its exit status and stderr as the
   * reason: a load waiting for a fixed number of answers would otherwise wait for ever.
   */
  died: AbortSignal;
  stop(): Promise<void>;
}

/** Spawns a server process, its stdout (the access log) going to `logFile`, and waits until it answers. */
export async function spawnAndWait(args: string[], env: NodeJS.ProcessEnv, logFile: string, probePath: string): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', out, 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      await (await fetch(url + probePath)).arrayBuffer();
      break;
    } catch {
      if (performance.now() - started > 30_000) throw new Error(`server did not answer in 30 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  const startMs = performance.now() - started;
  const died = new AbortController();
  let stopping = false;
  // 'close', not 'exit': by then its stderr has been read to the end.
  child.once('close', (code, signal) => {
    if (!stopping) died.abort(new Error(`a server exited during the benchmark (code ${code}, signal ${signal}); its stderr:\n${stderr.trim()}`));
  });
  return {
    child,
    url,
    startMs,
    died: died.signal,
    stop: () =>
      new Promise((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A process and its children (a primary's workers), from /proc; the process alone when /proc lists no children for it. */
function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...children.map(Number)];
  } catch {
    // no children file: no workers
    return [pid];
  }
}

/** `read` of one /proc file (`/proc/<id>/<file>`) summed over a process and its workers; a process gone by then counts 0. */
function summedOverTree(pid: number, file: string, read: (text: string) => number): number {
  return processTree(pid).reduce((total, id) => {
    try {
      return total + read(readFileSync(`/proc/${id}/${file}`, 'utf8'));
    } catch {
      return total;
    }
  }, 0);
}

/** Resident memory of a process and its children (workers), in MB, from /proc. */
export function rssMb(pid: number): number {
  return summedOverTree(pid, 'status', (status) => Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The peak resident set (VmHWM) of the process tree so far, in MB. */
export function peakRssMb(pid: number): number {
  return summedOverTree(pid, 'status', (status) => Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux this runs on, asked anyway. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user and system) a process and its children (workers) have used so far, in ms, from /proc. */
export function cpuMs(pid: number): number {
  return summedOverTree(pid, 'stat', (stat) => {
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.split(') ').at(-1)!.split(' ');
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  });
}
