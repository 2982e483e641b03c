import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NoDataError } from '../../src/domain/errors.js';
import { rememberedPairs, ratesOn } from '../../src/domain/rate-queries.js';
import { fullHistoryView } from '../helpers/full-history-view.js';

test('when a client asks for every date of the full history in several bases, then the remembered rate pairs stay within their bound', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  let answered = 0;
  let most = 0;
  for (const base of ['USD', 'GBP', 'JPY', 'CHF']) {
    for (const date of view.snapshot.datesNewestFirst) {
      try {
        answered += Object.keys(ratesOn(view.snapshot, tracked, date, { base }).rates).length;
      } catch (err) {
        if (!(err instanceof NoDataError)) throw err;
      }
      most = Math.max(most, rememberedPairs());
    }
  }
  assert.ok(answered > 400_000, `the walk asked for more pairs than the bound (${answered})`);
  assert.ok(most <= 100_000, `at most 100,000 pairs remembered at once (seen ${most})`);
});
