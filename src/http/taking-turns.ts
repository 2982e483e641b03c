/**
 * Heavy answers take turns (DECISIONS §14): each piece of work waits for its turn, and turns are
 * given one per turn of the event loop, so whatever arrives between two pieces (a /health probe,
 * a cached answer) is served in between, however many heavy answers are in progress. A queue, not
 * a setImmediate per piece: immediates queued together all run in one turn.
 */
export class Turns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves when the caller may run its next piece of work. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()!();
      this.schedule();
    });
  }
}

/** Text gathered into one piece before the next turn: small enough to hold the loop a few ms. */
const PIECE_BYTES = 64 * 1024;
/** …or this much time, whichever comes first. */
const PIECE_MS = 5;

/**
 * `parts` (a body's text, in the order written) as UTF-8 pieces of about PIECE_BYTES, each made
 * in its own turn (the first too: thirty answers asked at once do not all start in one turn).
 */
export async function* piecesInTurns(parts: Iterable<string>, turns: Turns): AsyncGenerator<Buffer> {
  const iterator = parts[Symbol.iterator]();
  for (let done = false; !done; ) {
    await turns.next();
    const started = performance.now();
    const gathered: string[] = [];
    for (let length = 0; length < PIECE_BYTES && performance.now() - started < PIECE_MS; ) {
      const next = iterator.next();
      if ((done = next.done === true)) break;
      gathered.push(next.value);
      length += next.value.length;
    }
    if (gathered.length > 0) yield Buffer.from(gathered.join(''), 'utf8');
  }
}
