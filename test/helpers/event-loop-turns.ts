/** Resolves in the next turn of the event loop, after its poll phase (a setImmediate). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts `count` operations, one per turn of the event loop (the first in this one), and waits for all of them. */
export async function onePerTurn<T>(count: number, start: (i: number) => Promise<T>): Promise<T[]> {
  const started: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await nextTurn();
    started.push(start(i));
  }
  return Promise.all(started);
}
