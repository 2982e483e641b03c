import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScaleFactor } from '../domain/money.js';

/**
 * Conversion answers written by the WebAssembly kernel (conversion-kernel.wat, assembled by the
 * build into conversion-kernel.wasm beside this file): the same bytes as the BigInt path of
 * conversion-answers.ts, at about a quarter less CPU per 25-target bulk answer in the server
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

/** Bytes of one target's terms: (maxScale + 1) amount scales × 4 little-endian u64. */
const termsSize = (kernel: Kernel) => (kernel.maxScale + 1) * 32;

/**
 * Each factor's terms as the kernel reads them, or null when one is past 64 bits. Encoded once
 * per factor, which every plan of its day and pair shares: turning BigInts into bytes
 * (`writeBigUInt64LE`) was nine tenths of writing a template, and the arena makes templates
 * write themselves again each time it starts over.
 */
const encodedTerms = new WeakMap<ScaleFactor, Buffer | null>();

function termsOf(kernel: Kernel, factor: ScaleFactor): Buffer | null {
  let terms = encodedTerms.get(factor);
  if (terms !== undefined) return terms;
  terms = Buffer.alloc(termsSize(kernel));
  for (let scale = 0; scale <= kernel.maxScale && terms; scale++) {
    const split = factor.splitTerms(scale);
    const words = split ? [split.quotient, split.remainder, split.divisor, split.twiceDivisor] : [TERM_LIMIT];
    for (const [i, word] of words.entries()) {
      if (word >= TERM_LIMIT) {
        terms = null;
        break;
      }
      terms.writeBigUInt64LE(word, scale * 32 + i * 8);
    }
  }
  encodedTerms.set(factor, terms);
  return terms;
}

/** What `KernelTemplate.place` writes for these runs: every template starts and ends 8-byte aligned. */
function encodedSize(kernel: Kernel, runs: readonly string[]): number {
  let size = aligned(4 + 4 + runs[0]!.length + 4 + runs[1]!.length);
  for (let i = 2; i < runs.length; i++) size = aligned(size + termsSize(kernel) + 4 + runs[i]!.length);
  return size;
}

const aligned = (at: number) => (at + 7) & ~7;

/**
 * A conversion template as the kernel reads it (the layout is described in conversion-kernel.wat).
 * It keeps only its parts, which its owner holds too, and its targets' shared terms, and writes
 * itself into the arena again whenever the arena has started over, so a plan's template costs
 * no memory of its own outside the arena.
 */
export class KernelTemplate {
  private at = 0;
  private round = -1;

  private constructor(
    private readonly kernel: Kernel,
    /** The answer up to the amount's opening quote, from its closing quote to the first result, then what follows each result. */
    private readonly runs: readonly string[],
    /** Each target's terms, in the order of its result. */
    private readonly terms: readonly Buffer[],
    private readonly size: number,
  ) {}

  /**
   * The kernel's form of a template whose answer is `head`, the amount with its quotes,
   * `afterAmount`, then each factor's result followed by its part of `afterResults`; undefined
   * when the kernel cannot write it (a part not ASCII, a term past 64 bits, too large a body).
   */
  static of(head: string, afterAmount: string, afterResults: readonly string[], factors: readonly ScaleFactor[]): KernelTemplate | undefined {
    const kernel = loaded;
    if (kernel === undefined) return undefined;
    const runs = [`${head}"`, `"${afterAmount}`, ...afterResults];
    if (runs.length !== factors.length + 2 || !runs.every((run) => ASCII.test(run))) return undefined;
    const fixedLength = runs.reduce((sum, run) => sum + run.length, 0);
    if (fixedLength + kernel.amountMax + RESULT_MAX * factors.length > kernel.bodyMax) return undefined;
    const size = encodedSize(kernel, runs);
    if (size > kernel.arenaEnd - kernel.arenaAt) return undefined;
    const terms: Buffer[] = [];
    for (const factor of factors) {
      const encoded = termsOf(kernel, factor);
      if (!encoded) return undefined;
      terms.push(encoded);
    }
    return new KernelTemplate(kernel, runs, terms, size);
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

  /** Writes the template at the arena's next place, starting the arena over if it does not fit. */
  private place(): void {
    const { kernel, runs, terms, size } = this;
    const { memory } = kernel;
    if (nextAt + size > kernel.arenaEnd) {
      nextAt = kernel.arenaAt;
      round++;
    }
    let at = nextAt;
    const run = (text: string) => {
      memory.writeInt32LE(text.length, at);
      memory.write(text, at + 4, 'latin1');
      at += 4 + text.length;
    };
    memory.writeInt32LE(terms.length, at);
    at += 4;
    run(runs[0]!);
    run(runs[1]!);
    at = aligned(at);
    for (const [i, encoded] of terms.entries()) {
      memory.set(encoded, at);
      at += encoded.length;
      run(runs[i + 2]!);
      at = aligned(at);
    }
    if (at !== nextAt + size) throw new Error(`a kernel template took ${at - nextAt} bytes, not the ${size} reckoned`);
    this.at = nextAt;
    this.round = round;
    nextAt += size;
  }
}

/** How many times the arena has started over (for the test that fills it). */
export function arenaRounds(): number {
  return round;
}
