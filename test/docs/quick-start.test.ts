import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { ECB_FIXTURES, tempDir } from '../helpers/test-server.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

const ROOT = REPO_ROOT;

function quickStartBlock(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- quick-start -->\s*```sh\n([\s\S]*?)```\s*<!-- \/quick-start -->/.exec(readme);
  assert.ok(block, 'README has a quick-start block');
  return block[1]!.trim().split('\n');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

test('when the README quick start is run as written, then the curl prints the documented rate set', async (t) => {
  const lines = quickStartBlock();
  assert.equal(lines[0], 'npm install');
  // npx would install the clone into its cache on the first call (a build) and cost a second or
  // more on every call after: the quick start runs the built CLI directly.
  assert.deepEqual(lines.filter((line) => /\bnpx\b/.test(line)), [], 'no quick-start step goes through npx');
  const port = await freePort();
  const dir = tempDir(t);
  // `npm install` already ran to build these tests. The only changes: the server's port (3000
  // may be taken on a shared machine), a database in a temp dir instead of ./data, and the ECB
  // history read from the repository's copy of the ECB's file instead of downloaded, so the test
  // needs no network.
  const script = lines
    .slice(1)
    .map((line) => line.replaceAll('localhost:3000', `localhost:${port}`))
    .map((line) => line.replace('--source ecb-hist', `--file ${ECB_FIXTURES}eurofxref-hist.zip`))
    .join('\n');
  // Its own process group, so the server that `npm start &` leaves behind is stopped with it.
  const child = spawn('bash', ['-e', '-c', script], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'quick-start.db')}`,
      INGEST_SCHEDULE: 'off',
      INGEST_ON_EMPTY: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  t.after(stopGroup);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(stopGroup, 60_000);
  // 'exit', not 'close': the background server still holds the pipes until the group is stopped.
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  stopGroup();
  assert.equal(code, 0, `quick start failed:\n${stdout}\n${stderr}`);
  const printed = stdout.trim().split('\n').at(-1);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const documented = /prints\s*```json\n(.*)\n```/.exec(readme)?.[1];
  assert.equal(printed, documented);
});
