import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RateRange } from '../../src/domain/range-queries.js';
import { rangeInTurns } from '../../src/http/mcp/range-in-turns.js';
import { Turns } from '../../src/http/taking-turns.js';

/**
 * DECISIONS §14 for the history tool: a range of the whole history's size is written in pieces
 * that take turns of the event loop (range-in-turns.ts), not in one go; the text and the object
 * are the HTTP answer's. (That text equals the HTTP body on a server: test/http/mcp.test.ts.)
 */

const CODES = Array.from({ length: 30 }, (_, i) => `C${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
const DAYS = 7000;

/** A range of the whole history's shape: its days made as they are read, each noting the turn it was made in. */
function wholeHistory(turnOf: () => number, made: Map<number, number>): RateRange {
  const dates = Array.from({ length: DAYS }, (_, i) => new Date(Date.UTC(1999, 0, 4 + i)).toISOString().slice(0, 10));
  return {
    base: 'EUR',
    start_date: dates[0]!,
    end_date: dates.at(-1)!,
    codes: CODES,
    *days() {
      for (const [i, date] of dates.entries()) {
        const rates = Object.fromEntries(CODES.map((code, j) => [code, `${(i % 97) + j}.${String(i * 31 + j).padStart(6, '0').slice(-6)}`]));
        made.set(turnOf(), (made.get(turnOf()) ?? 0) + JSON.stringify(rates).length);
        yield [date, rates];
      }
    },
  };
}

test('when the history tool writes the whole history, then it takes many turns of the event loop, each writing a small part, and the answer is the HTTP body', async () => {
  // Counts turns of the event loop while the answer is written: one tick per turn.
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const made = new Map<number, number>();
  const answer = await rangeInTurns(wholeHistory(() => turn, made), new Turns());
  ticking = false;

  const again = wholeHistory(() => 0, new Map());
  const body = { base: again.base, start_date: again.start_date, end_date: again.end_date, rates: Object.fromEntries(again.days()) };
  assert.equal(answer.text, JSON.stringify(body), 'the text is JSON.stringify of the HTTP body, byte for byte');
  assert.deepEqual(answer.structured, body);
  assert.ok(answer.text.length > 3_000_000, `as large as the whole history (${answer.text.length} bytes)`);

  const total = [...made.values()].reduce((sum, bytes) => sum + bytes, 0);
  const largest = Math.max(...made.values());
  assert.ok(made.size >= 20, `the days were made over ${made.size} turns of the event loop`);
  assert.ok(largest <= total / 20, `no turn made more than a twentieth of the answer (largest: ${largest} of ${total} bytes)`);
});
