import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z, type ZodType } from 'zod';
import { validateParts } from '../../src/http/hooks/validate-input.js';
import { bulkQuery, convertQuery, dateParams, rateSetQuery } from '../../src/http/request-schemas.js';

/**
 * validateParts reads zod's Standard Schema verdict instead of safeParse (for the garbage a flood
 * of 400s left behind); these hold it to safeParse's own answer on the API's schemas, input by
 * input, so the change of call cannot change a message, its order, or a parsed value.
 */

/** n well-formed codes: bulk counts codes as written (DECISIONS §2), so repeats count. */
const codes = (n: number) => Array.from({ length: n }, () => 'USD').join(',');

const inputs: Record<string, [ZodType, unknown[]]> = {
  rateSetQuery: [
    rateSetQuery,
    [{}, { base: 'USD' }, { base: 'usd', symbols: 'GBP,JPY' }, { base: 'US' }, { base: ['USD', 'GBP'] }, { symbols: '' },
      { symbols: 'GBP,,JPY' }, { base: 'U1D', symbols: 'GB' }, { base: 7 }, { extra: 'kept?' }],
  ],
  dateParams: [dateParams, [{ date: '2026-04-13' }, { date: '2026-02-30' }, { date: '20260413' }, {}, { date: ['2026-04-13'] }]],
  convertQuery: [
    convertQuery,
    [{ from: 'USD', to: 'JPY', amount: '100' }, { from: 'US', to: 'JPY', amount: 'abc' }, {}, { from: 'USD', to: 'JPY', amount: '-1' },
      { from: ['USD', 'EUR'], to: 'JPY', amount: '1' }, { from: 'USD', to: 'JPY', amount: '1e3' }, { from: 'USD', to: 'JP', amount: '0.5' }],
  ],
  bulkQuery: [
    bulkQuery,
    [{ from: 'USD', amount: '10', to: 'EUR,GBP' }, { from: 'USD', amount: '10', to: '' }, { from: 'USD', amount: '10' },
      { from: 'USD', amount: '10', to: ['EUR', 'GBP'] }, { from: 'USD', amount: '10', to: 'EU,GBP' }, { from: 'USD', amount: '10', to: codes(26) },
      { from: 'USD', amount: '10', to: `${codes(26)},X` }, {}, { from: 'X', amount: 'x', to: 'Y' }],
  ],
};

test('validateParts answers what safeParse answers, message for message and value for value', () => {
  let refused = 0;
  for (const [name, [schema, cases]] of Object.entries(inputs)) {
    for (const input of cases) {
      const expected = schema.safeParse(input);
      const got = validateParts({ querystring: schema }, { untouched: true }, input);
      const label = `${name} ${JSON.stringify(input)}`;
      if (expected.success) {
        assert.deepEqual(got, { ok: true, params: { untouched: true }, query: expected.data }, label);
      } else {
        refused += 1;
        assert.deepEqual(got, {
          ok: false,
          refusal: { statusCode: 400, messages: expected.error.issues.map((issue) => issue.message), withErrorField: true },
        }, label);
      }
    }
  }
  assert.ok(refused >= 15, `the cases exercise refusals (${refused})`);
});

test('validateParts lists the path part before the query, as safeParse on each would', () => {
  const got = validateParts({ params: dateParams, querystring: rateSetQuery }, { date: '2026-13-01' }, { base: 'EU', symbols: 'x' });
  const expected = [dateParams.safeParse({ date: '2026-13-01' }), rateSetQuery.safeParse({ base: 'EU', symbols: 'x' })]
    .flatMap((result) => (result.success ? [] : result.error.issues.map((issue) => issue.message)));
  assert.equal(expected.length, 3);
  assert.deepEqual(got, { ok: false, refusal: { statusCode: 400, messages: expected, withErrorField: true } });
});

test('a schema whose check throws is a fault, never a pass or a 400', () => {
  const throwing = z.object({ from: z.string().refine(() => { throw new Error('broken check'); }) });
  assert.throws(() => validateParts({ querystring: throwing }, {}, { from: 'USD' }), /did not validate synchronously/);
  const asynchronous = z.object({ from: z.string().refine(async () => true) });
  assert.throws(() => validateParts({ querystring: asynchronous }, {}, { from: 'USD' }), /did not validate synchronously/);
});
