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

/** What `KernelTemplate.place` writes for these runs and targets: every template starts and ends 8-byte aligned. */
function encodedSize(runs: readonly string[], targets: number, maxScale: number): number {
  let size = aligned(4 + 4 + runs[0]!.length + 4 + runs[1]!.length);
  for (let i = 0; i < targets; i++) size = aligned(size + (maxScale + 1) * 32 + 4 + runs[i + 2]!.length);
  return size;
}

const aligned = (at: number) => (at + 7) & ~7;

/**
 * A conversion template as the kernel reads it (the layout is described in conversion-kernel.wat).
 * It keeps only what its owner already holds (the parts and the factors) and writes itself into
 * the arena again whenever the arena has started over, so a plan's template costs no memory of
 * its own outside the arena.
 */
export class KernelTemplate {
  private at = 0;
  private round = -1;

  private constructor(
    private readonly kernel: Kernel,
    /** The answer up to the amount's opening quote, from its closing quote to the first result, then what follows each result. */
    private readonly runs: readonly string[],
    private readonly factors: readonly ScaleFactor[],
    private readonly size: number,
  ) {}

  /**
   * The kernel's form of a template whose answer is `head`, the amount with its quotes,
   * `afterAmount`, then each factor's result followed by its part of `afterResults`; undefined
   * when the kernel cannot write it (a part not ASCII, a term past 64 bits, too large a body).
   */
  static of(head: string, afterAmount: string, afterResults: readonly string[], factors: readonly ScaleFactor[]): KernelTemplate | undefined {
    if (loaded === undefined) return undefined;
    const runs = [`${head}"`, `"${afterAmount}`, ...afterResults];
    if (runs.length !== factors.length + 2 || !runs.every((run) => ASCII.test(run))) return undefined;
    const fixedLength = runs.reduce((sum, run) => sum + run.length, 0);
    if (fixedLength + loaded.amountMax + RESULT_MAX * factors.length > loaded.bodyMax) return undefined;
    const size = encodedSize(runs, factors.length, loaded.maxScale);
    if (size > loaded.arenaEnd - loaded.arenaAt) return undefined;
    const template = new KernelTemplate(loaded, runs, factors, size);
    return template.place() ? template : undefined;
  }

  /** The answer's text for `amountText` (a numeric string), or undefined when the kernel leaves it to BigInt. */
  answer(amountText: string): string | undefined {
    const { kernel } = this;
    if (amountText.length > kernel.amountMax) return undefined;
    if (this.round !== round && !this.place()) return undefined;
    kernel.memory.write(amountText, kernel.amountAt, 'latin1');
    const length = kernel.answer(this.at, amountText.length);
    return length === 0 ? undefined : kernel.memory.toString('latin1', kernel.bodyAt, kernel.bodyAt + length);
  }

  /** Writes the template at the arena's next place (starting the arena over if it does not fit); false if a term is past 64 bits. */
  private place(): boolean {
    const { kernel, runs, factors, size } = this;
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
    memory.writeInt32LE(factors.length, at);
    at += 4;
    run(runs[0]!);
    run(runs[1]!);
    at = aligned(at);
    for (const [i, factor] of factors.entries()) {
      for (let scale = 0; scale <= kernel.maxScale; scale++) {
        const split = factor.splitTerms(scale);
        if (!split) return false;
        for (const word of [split.quotient, split.remainder, split.divisor, split.twiceDivisor]) {
          if (word >= TERM_LIMIT) return false;
          memory.writeBigUInt64LE(word, at);
          at += 8;
        }
      }
      run(runs[i + 2]!);
      at = aligned(at);
    }
    if (at !== nextAt + size) throw new Error(`a kernel template took ${at - nextAt} bytes, not the ${size} reckoned`);
    this.at = nextAt;
    this.round = round;
    nextAt += size;
    return true;
  }
}

/** How many times the arena has started over (for the test that fills it). */
export function arenaRounds(): number {
  return round;
}
