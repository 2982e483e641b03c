/**
 * One day's rates as one string, `USD=1.1684;JPY=186.75`: how the stores hand whole days to the
 * snapshot. Codes are three letters and rates canonical decimals, so neither separator can occur
 * inside a value.
 */

/** `;` and `=`, the separators of an encoded day. */
const PAIRS = 59;
const EQUALS = 61;

/**
 * An encoded day read in place, as a map from code to value: nothing is decoded ahead, so a
 * server holding the whole history holds one string a day, however many of its days answers read.
 * `keep`: the codes it has (others in the text are left out).
 */
export class EncodedDayRates implements ReadonlyMap<string, string> {
  constructor(
    private readonly encoded: string,
    private readonly keep: (code: string) => boolean,
  ) {}

  get(code: string): string | undefined {
    const at = code.length === 3 && this.keep(code) ? this.pairOf(code) : -1;
    if (at < 0) return undefined;
    const end = this.encoded.indexOf(';', at + 4);
    return this.encoded.slice(at + 4, end < 0 ? undefined : end);
  }

  has(code: string): boolean {
    return code.length === 3 && this.keep(code) && this.pairOf(code) >= 0;
  }

  /** Where `code`'s pair starts: the text's start or after `;`, the code then `=` (a value holds no letters). */
  private pairOf(code: string): number {
    const text = this.encoded;
    for (let at = text.indexOf(code); at >= 0; at = text.indexOf(code, at + 1)) {
      if ((at === 0 || text.charCodeAt(at - 1) === PAIRS) && text.charCodeAt(at + 3) === EQUALS) return at;
    }
    return -1;
  }

  get size(): number {
    return codesIn(this.encoded, this.keep).length;
  }

  entries(): MapIterator<[string, string]> {
    const pairs: [string, string][] = [];
    const text = this.encoded;
    eachPair(text, this.keep, (code, at, end) => pairs.push([code, text.slice(at, end)]));
    return pairs.values();
  }

  keys(): MapIterator<string> {
    return codesIn(this.encoded, this.keep).values();
  }

  *values(): MapIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, code: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    for (const [code, value] of this.entries()) callback.call(thisArg, value, code, this);
  }
}

/**
 * The codes of an encoded day that `keep` takes, in the text's order, read without their values:
 * an index or a span lists every day's codes, and a value sliced for nothing costs as much.
 */
export function codesIn(encoded: string, keep: (code: string) => boolean = () => true): string[] {
  const codes: string[] = [];
  eachPair(encoded, keep, (code) => codes.push(code));
  return codes;
}

/** Calls `take` with each pair's code that `keep` takes and where its value lies (`at` to `end`), in the text's order. */
function eachPair(encoded: string, keep: (code: string) => boolean, take: (code: string, at: number, end: number) => void): void {
  for (let at = 0; at < encoded.length; ) {
    const end = encoded.indexOf(';', at);
    const next = end < 0 ? encoded.length : end;
    if (at + 3 < next && encoded.charCodeAt(at + 3) === EQUALS) {
      const code = encoded.slice(at, at + 3);
      if (keep(code)) take(code, at + 4, next);
    }
    at = next + 1;
  }
}
