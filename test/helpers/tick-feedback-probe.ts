/**
 * Preloaded into a server under test (`NODE_OPTIONS=--import <this>`): on SIGUSR2 it runs two full
 * garbage collections at a moment when no tick object is alive, queues more ticks, writes a marker
 * line and prints V8's view of `process.nextTick` (its feedback) to stdout. V8 prints through C's
 * stdio: give the server a file for stdout (spawnServer's `stdoutFile`), not a pipe.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TICK_FEEDBACK_MARKER } from './tick-feedback.js';

setFlagsFromString('--expose-gc');
setFlagsFromString('--allow-natives-syntax');
const gc = runInNewContext('gc') as () => void;
// Parsed after the flag is set: the natives syntax is allowed only from then on.
const debugPrint = new Function('f', '%DebugPrint(f)') as (f: unknown) => void;

process.on('SIGUSR2', () => {
  gc();
  gc();
  setImmediate(async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => process.nextTick(resolve));
    process.stdout.write(`${TICK_FEEDBACK_MARKER}\n`, () => debugPrint(process.nextTick));
  });
});
