import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { validateParts } from '../../src/http/endpoints/validate-parts.js';
import { bulkQuery, dateParams, MESSAGES, rateSetQuery } from '../../src/http/endpoints/parameters.js';

const refused = (result: ReturnType<typeof validateParts>) => (result.ok ? undefined : { status: result.error.statusCode, messages: result.error.messages });

test('when input is valid, then validateParts gives the parsed parts', () => {
  const got = validateParts({ params: dateParams, querystring: rateSetQuery }, { date: '2026-04-13' }, { base: 'usd', symbols: 'GBP,JPY', extra: 'x' });
  assert.deepEqual(got, { ok: true, params: { date: '2026-04-13' }, query: { base: 'usd', symbols: 'GBP,JPY' } });
});

test('when path and query both fail, then one 400 lists every message, the path part first', () => {
  const got = validateParts({ params: dateParams, querystring: rateSetQuery }, { date: '2026-13-01' }, { base: 'EU', symbols: 'x' });
  assert.deepEqual(refused(got), { status: 400, messages: [MESSAGES.date, MESSAGES.base, MESSAGES.symbols] });
});

test('when a bulk list is both malformed and too long, then both messages come, in the spec\'s order', () => {
  const to = `${Array.from({ length: 26 }, () => 'USD').join(',')},X`;
  assert.deepEqual(refused(validateParts({ querystring: bulkQuery }, {}, { from: 'USD', amount: '10', to })), { status: 400, messages: [MESSAGES.toList, MESSAGES.toMax] });
  assert.deepEqual(refused(validateParts({ querystring: bulkQuery }, {}, { from: 'X', amount: 'x' })), { status: 400, messages: [MESSAGES.from, MESSAGES.amount, MESSAGES.toMin] });
});

test('when a schema\'s check throws, then validation fails as a fault, never as a pass or a 400', () => {
  const throwing = z.object({ from: z.string().refine(() => { throw new Error('broken check'); }) });
  assert.throws(() => validateParts({ querystring: throwing }, {}, { from: 'USD' }), /broken check/);
  const asynchronous = z.object({ from: z.string().refine(async () => true) });
  assert.throws(() => validateParts({ querystring: asynchronous }, {}, { from: 'USD' }));
});
