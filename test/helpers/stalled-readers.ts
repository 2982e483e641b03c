import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { REPO_ROOT } from './fixtures.js';

/**
 * The test option of a test that runs the readers: they need python3 (Node cannot shrink a
 * socket's receive buffer), so without it the test is skipped, except under CI=true, where it fails.
 */
export const NEEDS_PYTHON = {
  skip: spawnSync('python3', ['--version']).status !== 0 && process.env['CI'] !== 'true' ? 'python3 is not installed' : false,
};

/** What one reader saw once read: whether the server had closed the connection, and the bytes it had sent (head included). */
export interface ReaderEnd {
  closed: boolean;
  bytes: number;
}

/**
 * Connections from stalled-readers.py, each asking `port` for one of `paths` with `key`: `sent`
 * once every request is out; `read()` then reads each to its end, `paceMs` apart per 16 KiB when
 * given (a slow reader), else at once. The process is killed when the test ends.
 */
export async function stalledReaders(t: TestContext, port: number, key: string, paths: readonly string[], paceMs?: number): Promise<{ read: () => Promise<ReaderEnd[]> }> {
  const args = [join(REPO_ROOT, 'test/helpers/stalled-readers.py'), String(port), key, ...(paceMs === undefined ? [] : [String(paceMs)])];
  const readers = spawn('python3', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => readers.kill());
  const lines = createInterface({ input: readers.stdout })[Symbol.asyncIterator]();
  readers.stdin.write(paths.join(' ') + '\n');
  const sent = (await lines.next()).value;
  if (sent !== 'sent') throw new Error(`stalled-readers.py said ${String(sent)}, not "sent"`);
  return {
    read: async () => {
      readers.stdin.write('read\n');
      const ends: ReaderEnd[] = [];
      for (let i = 0; i < paths.length; i++) ends.push(JSON.parse((await lines.next()).value as string) as ReaderEnd);
      return ends;
    },
  };
}
