/**
 * The states V8 reports (`%DebugPrint(process.nextTick)`) for the feedback of the tick object's
 * literal: one per key, `MONOMORPHIC` or `MEGAMORPHIC` (see src/tick-object-maps.ts).
 */
export function tickLiteralStates(printed: string): string[] {
  return [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

/** Written by tick-feedback-probe.ts before V8's print. */
export const TICK_FEEDBACK_MARKER = '--- tick feedback ---';
