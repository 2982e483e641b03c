import { hash } from 'node:crypto';
import { decimal, isPositive, scaledBy, type Decimal, type ScaleFactor } from '../domain/money.js';
import type { BulkConversion, Conversion, ConversionPlan } from '../domain/rate-queries.js';
import { KernelTemplate } from './conversion-kernel.js';
import { jsonString } from './json-string.js';
import { Json } from './response-cache.js';

/** Stands where the amount and the results go while a template is cut from JSON.stringify's output. */
const MARKER = '\u0000';
const MARKER_IN_JSON = JSON.stringify(MARKER).slice(1, -1);

/**
 * Longest amount (characters) an ETag carries as it was sent. Past it the answer's ETag is the
 * SHA-1 of its bytes, as every other answer's: an ETag as long as the URL allows would be sent on
 * every answer and back in every If-None-Match.
 */
export const MAX_AMOUNT_IN_ETAG = 40;

/**
 * A conversion answer cut at the places its amount and results go: every part that does not
 * depend on the amount is written once per plan. Its bytes are exactly JSON.stringify's for the
 * answer's object (test/http/conversion-answers.test.ts compares them): each part is cut from
 * JSON.stringify's own output.
 *
 * The ETag is derived, not hashed per answer. The bytes are fixed by this template, the exact
 * factors the results are scaled by and the amount as sent, so `"<tag>.<amount>"` is a strong
 * validator of them, with `tag` the SHA-1 of the template and the factors, taken once. Hashing the
 * 1.5 KB of a 25-target bulk answer cost ~30,000 instructions, ~15 % of the answer (callgrind).
 */
class AmountTemplate {
  private readonly head: string;
  private readonly afterAmount: string;
  /** Between consecutive results: `","rate":"…"},{"to":"JPY","result":"`; the last closes the answer. */
  private readonly afterResults: string[];
  private readonly tag: string;
  /**
   * The kernel's form of this template (conversion-kernel.ts): made on the second answer, as a
   * question asked only once is not worth encoding; null where the kernel cannot write it.
   */
  private kernel: KernelTemplate | null | undefined;
  private answers = 0;

  /** `shape`: the answer with MARKER as its amount and as each result, in the order of `factors`; the amount comes first. */
  constructor(
    shape: object,
    private readonly factors: readonly ScaleFactor[],
  ) {
    const json = JSON.stringify(shape);
    const [head, afterAmount, ...afterResults] = json.split(MARKER_IN_JSON);
    if (afterResults.length !== factors.length) throw new Error('a conversion template needs one result per factor');
    // The amount goes in with its quotes (jsonString), so the marker's own quotes are cut off.
    this.head = head!.slice(0, -1);
    this.afterAmount = afterAmount!.slice(1);
    this.afterResults = afterResults;
    this.tag = hash('sha1', [json, ...factors.map((factor) => factor.exact)].join('\n'), 'base64url');
  }

  /** The answer for `amountText` (a numeric string), whose value is `amount`. */
  answer(amountText: string, amount: Decimal): Json {
    // The tag is base64url of fixed length and the amount a numeric string: no two pairs of them join alike.
    const etag = amountText.length <= MAX_AMOUNT_IN_ETAG ? `"${this.tag}.${amountText}"` : undefined;
    if (this.kernel === undefined && ++this.answers >= 2) this.kernel = KernelTemplate.of(this.head, this.afterAmount, this.afterResults, this.factors) ?? null;
    const written = this.kernel?.answer(amountText);
    if (written !== undefined) return new Json(written, etag);
    let json = this.head + jsonString(amountText) + this.afterAmount;
    const positive = isPositive(amount);
    for (let i = 0; i < this.factors.length; i++) {
      const factor = this.factors[i]!;
      json += (positive ? factor.ofPositive(amount) : scaledBy(amount, factor)) + this.afterResults[i]!;
    }
    return new Json(json, etag);
  }
}

/**
 * An answer function of one endpoint: its template is made once per plan, from the answer's
 * shape for that plan, with the plan's targets' factors in their order.
 */
function answerFor(shapeOf: (plan: ConversionPlan) => object) {
  const templates = new WeakMap<ConversionPlan, AmountTemplate>();
  return (plan: ConversionPlan, amountText: string, amount: Decimal = decimal(amountText)): Json => {
    let template = templates.get(plan);
    if (!template) {
      template = new AmountTemplate(
        shapeOf(plan),
        plan.targets.map(({ factor }) => factor),
      );
      templates.set(plan, template);
    }
    return template.answer(amountText, amount);
  };
}

/** GET /convert's answer: its plan has one target. */
export const conversionAnswer = answerFor(({ from, date, targets: [target] }): Conversion => ({ from, to: target!.to, amount: MARKER, result: MARKER, rate: target!.rate, date }));

/** GET /convert/bulk's answer: every target of the plan, in its order. */
export const bulkAnswer = answerFor(({ from, date, targets }): BulkConversion => ({
  from,
  amount: MARKER,
  date,
  conversions: targets.map(({ to, rate }) => ({ to, result: MARKER, rate })),
}));
