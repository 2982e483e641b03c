import { writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Written by printTickFeedbackAfterFullCollections before V8's print. */
export const TICK_FEEDBACK_MARKER = '--- tick feedback ---';

/**
 * For a child process under test (it sets V8 flags in the process that calls it): at the start of
 * the next turn, when no tick object is alive, runs two full garbage collections, queues 20 more
 * ticks, then writes TICK_FEEDBACK_MARKER and V8's view of `process.nextTick` (its feedback) to
 * stdout. V8 prints through C's stdio, 4 KiB at a time; from a server with a piped stdout only
 * the first piece arrived: give a server a file for stdout (spawnServer's `stdoutFile`).
 */
export async function printTickFeedbackAfterFullCollections(): Promise<void> {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--allow-natives-syntax');
  const gc = runInNewContext('gc') as () => void;
  // Parsed after the flag is set: the natives syntax is allowed only from then on.
  const debugPrint = new Function('f', '%DebugPrint(f)') as (f: unknown) => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  for (let i = 0; i < 20; i++) await new Promise((resolve) => process.nextTick(resolve));
  // Not through process.stdout: making it sets a pipe non-blocking, and C's stdio then drops
  // what the pipe cannot take at once (V8's print went missing in a child with a piped stdout).
  writeSync(1, `${TICK_FEEDBACK_MARKER}\n`);
  debugPrint(process.nextTick);
}

/**
 * The states V8 reports (`%DebugPrint(process.nextTick)`) for the feedback of the tick object's
 * literal: one per key, `MONOMORPHIC` or `MEGAMORPHIC` (see src/tick-object-maps.ts).
 */
export function tickLiteralStates(printed: string): string[] {
  return [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}
