import type { RateRange } from '../../domain/range-queries.js';
import { rateRangeJson } from '../endpoints/rate-range.js';
import { piecesInTurns, type Turns } from '../taking-turns.js';

/** A range as the history tool answers it: the HTTP body's object, and its JSON text. */
export interface RangeAnswer {
  structured: { base: string; start_date: string; end_date: string; rates: Record<string, Record<string, string>> };
  text: string;
}

/**
 * DECISIONS §14: a range (the whole history is megabytes) written as the HTTP endpoint writes it,
 * day by day (rateRangeJson), in pieces that take their turns with every other heavy answer of
 * the app, so no call holds the event loop for more than a piece. Each day's rate set is computed
 * once, as its JSON is written, and kept for the structured content too.
 */
export async function rangeInTurns(range: RateRange, turns: Turns): Promise<RangeAnswer> {
  const rates: Record<string, Record<string, string>> = {};
  const keeping: RateRange = {
    ...range,
    *days() {
      for (const day of range.days()) {
        rates[day[0]] = day[1];
        yield day;
      }
    },
  };
  const pieces: Buffer[] = [];
  for await (const piece of piecesInTurns(rateRangeJson(keeping), turns)) pieces.push(piece);
  const { base, start_date, end_date } = range;
  return { structured: { base, start_date, end_date, rates }, text: Buffer.concat(pieces).toString('utf8') };
}
