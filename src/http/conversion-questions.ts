/**
 * Validated conversion questions, by their URL with the amount's value cut out.
 *
 * A conversion client asks the same question (these currencies) over and over with new amounts,
 * so the answer cache, keyed by the whole URL, never hits; yet everything but the amount
 * validates the same way every time. Parsing and validating a bulk query (25 codes) was the
 * largest part of the work of a bulk answer that is the service's own (measured side by side:
 * 97 → 83 µs of server CPU per bulk request on a busy machine, 85 → 64 on a quieter one).
 *
 * Reuse is only taken when it cannot differ from a full validation: the amount's value must be a
 * plain unsigned decimal (digits and at most one point), which the query parser passes through
 * unchanged and the amount rule accepts; the rest of the URL must be byte for byte one that
 * validated in full before with a plain amount in the same place. Two such URLs differ only in
 * that value, and no rule of one parameter looks at another. The positive-amount check and all
 * the data lookups still run for every request (in the endpoint's compute).
 */

/** Digits with an optional fraction, or `.5`: what fast-querystring leaves alone and NUMERIC_STRING accepts. */
const PLAIN_AMOUNT = /^(\d+(\.\d+)?|\.\d+)$/;

/** A conversion URL cut at its amount: `key` is the URL without the value, `amount` the value of parameter `name`. */
export interface AskedQuestion {
  key: string;
  name: string;
  amount: string;
}

/**
 * The first `name=` parameter of a URL's query (from `mark`, the index of its `?`), when its value
 * is a plain amount; undefined otherwise (no query, no such parameter, anything to decode).
 */
export function askedQuestion(url: string, mark: number, name: string): AskedQuestion | undefined {
  const prefix = `${name}=`;
  let at = url.indexOf(prefix, mark + 1);
  while (at !== -1 && url[at - 1] !== '&' && at !== mark + 1) at = url.indexOf(prefix, at + 1);
  if (at === -1) return undefined;
  const start = at + prefix.length;
  const end = url.indexOf('&', start);
  const amount = end === -1 ? url.slice(start) : url.slice(start, end);
  if (!PLAIN_AMOUNT.test(amount)) return undefined;
  return { key: end === -1 ? url.slice(0, start) : url.slice(0, start) + url.slice(end), name, amount };
}

/** What an entry costs beyond its key's characters (the map entry and the validated query), roughly. */
export const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Validated queries (amount excluded: the caller sets it) by question key. Validation is syntax
 * alone, so entries hold across data versions. Bounded by size, not count: a valid conversion URL
 * may carry unknown parameters up to the 8 KiB URL limit, so a count bound alone would let a
 * client fill tens of megabytes. The oldest question goes first.
 */
export class ConversionQuestions {
  private readonly validated = new Map<string, Readonly<Record<string, unknown>>>();
  private heldBytes = 0;

  constructor(private readonly maxBytes = 2 * 1024 * 1024) {}

  /** The validated query of this question with `amount` in place, or undefined if not known. */
  withAmount(asked: AskedQuestion): Record<string, unknown> | undefined {
    const query = this.validated.get(asked.key);
    return query && { ...query, [asked.name]: asked.amount };
  }

  /** Remembers a full validation's result; only when it took the amount exactly as cut from the URL. */
  remember(asked: AskedQuestion, query: unknown): void {
    const parsed = query as Record<string, unknown>;
    const size = sizeOf(asked.key);
    if (parsed[asked.name] !== asked.amount || this.validated.has(asked.key) || size > this.maxBytes) return;
    while (this.heldBytes + size > this.maxBytes) {
      const oldest = this.validated.keys().next().value!;
      this.validated.delete(oldest);
      this.heldBytes -= sizeOf(oldest);
    }
    this.validated.set(asked.key, parsed);
    this.heldBytes += size;
  }
}

function sizeOf(key: string): number {
  return key.length + ENTRY_OVERHEAD_BYTES;
}
