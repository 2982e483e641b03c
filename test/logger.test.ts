import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { createLogger, flushLogger } from '../src/logger.js';
import { tempDir } from './helpers/temp-dir.js';

/** A logger writing to a file of the test's own, closed (with its periodic flush) when the test ends. */
function fileLogger(t: TestContext) {
  const file = join(tempDir(t), 'out.log');
  const log = createLogger('info', fs.openSync(file, 'a'));
  t.after(() => (log as unknown as Record<symbol, { destroy(): void }>)[pino.symbols.streamSym]!.destroy());
  return { file, log };
}

test('when traffic is too light to fill a write, then lines still reach the log within moments, and the log file is never fsynced', async (t) => {
  // sonic-boom calls these through the `fs` module object, so a spy here sees its calls.
  const fsyncSync = t.mock.method(fs, 'fsyncSync');
  const fsync = t.mock.method(fs, 'fsync');
  const { file, log } = fileLogger(t);

  log.info({ n: 1 }, 'first');
  assert.equal(fs.readFileSync(file, 'utf8'), '', 'one short line waits in the buffer');
  let text = '';
  for (let waited = 0; waited < 2_000 && !text.includes('"msg":"second"'); waited += 25) {
    if (waited === 300) log.info({ n: 2 }, 'second');
    await sleep(25);
    text = fs.readFileSync(file, 'utf8');
  }
  const lines = text.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; n: number });
  assert.deepEqual(lines.map(({ msg, n }) => [msg, n]), [['first', 1], ['second', 2]]);
  assert.equal(fsyncSync.mock.callCount() + fsync.mock.callCount(), 0);
});

test('when many lines come in one turn and across turns, then all of them reach the log in order, the last ones when the logger is flushed', async (t) => {
  const { file, log } = fileLogger(t);
  let n = 0;
  for (let turn = 0; turn < 30; turn++) {
    // 500-byte lines: a turn's worth is more than one 4 KiB write.
    for (let i = 0; i < 40; i++) log.info({ n: n++, pad: 'x'.repeat(450) }, 'line');
    await new Promise((resolve) => setImmediate(resolve));
  }
  log.info({ n: n++ }, 'written just before the flush');
  await flushLogger(log);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { n: number });
  assert.deepEqual(lines.map((line) => line.n), Array.from({ length: n }, (_, i) => i));
});

test('when one turn logs far more than a turn holds, then the lines reach the log before the turn ends', async (t) => {
  const { file, log } = fileLogger(t);
  for (let n = 0; n < 1000; n++) log.info({ n, pad: 'x'.repeat(450) }, 'line');
  // Still the same turn: what was handed over is written in 4 KiB writes as it came.
  const written = fs.readFileSync(file, 'utf8').split('\n').length - 1;
  assert.ok(written >= 800, `${written} of 1000 lines written within the turn`);
  await flushLogger(log);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 1000);
});
