import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScaleFactor } from '../domain/money.js';

/**
 * Conversion answers written by the WebAssembly kernel (conversion-kernel.wat, assembled by the
 * build into conversion-kernel.wasm beside this file): the same bytes as the BigInt path of
 * conversion-answers.ts, at about a fifth less CPU per 25-target bulk answer in the server
 * (docs/performance.md). An answer the kernel leaves (an amount with more than 18 digits or
 * more places than it has terms for, a product past 64 bits) is answered by that path.
 */

/** The part of the WebAssembly API used here: its declarations come with the DOM library, which this build does not use. */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

const KERNEL_FILE = new URL('./conversion-kernel.wasm', import.meta.url);

/**
 * The kernel, or undefined where this Node.js has no WebAssembly (`--jitless` turns it off): the
 * BigInt path then answers everything, as it did before the kernel. A missing binary is a broken
 * build, and fails loudly instead.
 */
function loadKernel() {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(KERNEL_FILE);
  } catch (error) {
    throw new Error(`${fileURLToPath(KERNEL_FILE)} is missing: "npm run build" assembles it from conversion-kernel.wat`, { cause: error });
  }
  const { exports } = new api.Instance(new api.Module(bytes));
  const layout = (name: string) => (exports[name] as { value: number }).value;
  return {
    answer: exports.answer as (template: number, amountLength: number) => number,
    // The kernel's memory never grows, so this view of it stays valid.
    memory: Buffer.from((exports.memory as { buffer: ArrayBuffer }).buffer),
    amountAt: layout('amountAt'),
    amountMax: layout('amountMax'),
    bodyAt: layout('bodyAt'),
    bodyMax: layout('bodyMax'),
    arenaAt: layout('arenaAt'),
    arenaEnd: layout('arenaEnd'),
    maxScale: layout('maxScale'),
  };
}

type Kernel = NonNullable<ReturnType<typeof loadKernel>>;
const loaded = loadKernel();

/** Where the next template is placed in the kernel's arena. */
let nextAt = loaded?.arenaAt ?? 0;
/**
 * How many times the arena has started over. When a template does not fit, the arena starts
 * again from the beginning and every template placed before is placed anew on its next answer:
 * a bounded arena with no bookkeeping of which plans are still alive.
 */
let round = 0;

/** The largest value the kernel's 64-bit terms may have (it adds two products below 2^63 and one of these). */
const TERM_LIMIT = 1n << 63n;
/** The longest text of a result: 2^64 - 1 millionths is 20 digits, and the point. */
const RESULT_MAX = 21;
const ASCII = /^[\x00-\x7f]*$/;

/** A conversion template as the kernel reads it (the layout is described in conversion-kernel.wat). */
export class KernelTemplate {
  private at = 0;
  private round = -1;

  private constructor(
    private readonly kernel: Kernel,
    private readonly encoded: Buffer,
  ) {}

  /**
   * The kernel's form of a template whose answer is `head`, the amount with its quotes,
   * `afterAmount`, then each factor's result followed by its part of `afterResults`; undefined
   * when the kernel cannot write it (a part not ASCII, a term past 64 bits, too large a body).
   */
  static of(head: string, afterAmount: string, afterResults: readonly string[], factors: readonly ScaleFactor[]): KernelTemplate | undefined {
    if (loaded === undefined) return undefined;
    const kernel = loaded;
    const parts = [head, afterAmount, ...afterResults];
    if (!parts.every((part) => ASCII.test(part))) return undefined;
    const fixedLength = parts.reduce((sum, part) => sum + part.length, 2);
    if (fixedLength + kernel.amountMax + RESULT_MAX * factors.length > kernel.bodyMax) return undefined;

    const chunks: Buffer[] = [];
    let length = 0;
    const push = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    };
    const run = (text: string) => {
      const chunk = Buffer.alloc(4 + text.length);
      chunk.writeInt32LE(text.length, 0);
      chunk.write(text, 4, 'latin1');
      push(chunk);
    };
    const align = () => push(Buffer.alloc((8 - (length % 8)) % 8));

    const count = Buffer.alloc(4);
    count.writeInt32LE(factors.length, 0);
    push(count);
    run(`${head}"`);
    run(`"${afterAmount}`);
    align();
    for (const [i, factor] of factors.entries()) {
      const terms = Buffer.alloc((kernel.maxScale + 1) * 32);
      for (let scale = 0; scale <= kernel.maxScale; scale++) {
        const split = factor.splitTerms(scale);
        if (!split) return undefined;
        const words = [split.quotient, split.remainder, split.divisor, split.twiceDivisor];
        for (const [j, word] of words.entries()) {
          if (word >= TERM_LIMIT) return undefined;
          terms.writeBigUInt64LE(word, scale * 32 + j * 8);
        }
      }
      push(terms);
      run(afterResults[i]!);
      align();
    }
    if (length > kernel.arenaEnd - kernel.arenaAt) return undefined;
    return new KernelTemplate(kernel, Buffer.concat(chunks, length));
  }

  /** The answer's text for `amountText` (a numeric string), or undefined when the kernel leaves it to BigInt. */
  answer(amountText: string): string | undefined {
    const { kernel } = this;
    if (amountText.length > kernel.amountMax) return undefined;
    if (this.round !== round) this.place();
    kernel.memory.write(amountText, kernel.amountAt, 'latin1');
    const length = kernel.answer(this.at, amountText.length);
    return length === 0 ? undefined : kernel.memory.toString('latin1', kernel.bodyAt, kernel.bodyAt + length);
  }

  private place(): void {
    const { kernel } = this;
    if (nextAt + this.encoded.length > kernel.arenaEnd) {
      nextAt = kernel.arenaAt;
      round++;
    }
    this.encoded.copy(kernel.memory, nextAt);
    this.at = nextAt;
    this.round = round;
    // Encoded lengths are multiples of 8, so the next template is aligned too.
    nextAt += this.encoded.length;
  }
}

/** How many times the arena has started over (for the test that fills it). */
export function arenaRounds(): number {
  return round;
}
