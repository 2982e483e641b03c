import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boc } from '../../../src/ingest/sources/boc.js';
import { assertRefused, edited, PROVIDER_FILES, providerBytes, providerText, valuesOn } from '../../helpers/provider-fixtures.js';

test('when the recorded Valet observations are parsed, then they give five days of CAD per 1 unit, one value per FX…CAD series', async () => {
  const days = await boc.parse(providerBytes(PROVIDER_FILES.boc), PROVIDER_FILES.boc);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-12', '2026-03-13', '2026-03-16', '2026-03-17', '2026-03-18']);
  assert.ok(days.every((day) => day.values.size === 23), 'twenty-three series every day');
  const first = valuesOn(days, '2026-03-12');
  assert.equal(first.get('EUR'), '1.5693');
  assert.equal(first.get('USD'), '1.3617');
  assert.equal(first.get('INR'), '0.01475');
  assert.equal(first.get('IDR'), '0.000081');
  assert.equal(first.get('JPY'), '0.00855', 'written 0.008550');
  const last = valuesOn(days, '2026-03-18');
  assert.equal(last.get('EUR'), '1.5774');
  assert.equal(last.get('USD'), '1.3706');
  assert.equal(last.get('GBP'), '1.8258');
  assert.equal(last.has('CAD'), false);
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and series', async () => {
  const text = providerText(PROVIDER_FILES.boc);
  await assertRefused(boc, edited(text, '"v": "1.5693"', '"v": 1.5693'), /2026-03-12 currency=EUR "v": expected a string, got the number "1.5693"/);
  await assertRefused(boc, edited(text, '"v": "1.5693"', '"v": "1,5693"'), /2026-03-12 currency=EUR: invalid rate "1,5693"/);
  await assertRefused(boc, edited(text, '"v": "1.5693"', '"v": ""'), /2026-03-12 currency=EUR: invalid rate ""/);
  await assertRefused(boc, edited(text, '"d": "2026-03-13"', '"d": "2026-03-12"'), /observation of 2026-03-12 appears twice/);
  await assertRefused(boc, edited(text, '"d": "2026-03-13"', '"d": "13.03.2026"'), /observation #2 has an invalid date "13.03.2026"/);
  await assertRefused(boc, edited(text, '"d": "2026-03-13",\n            "FXAUDCAD"', '"d": "2026-03-13",\n            "AUD"'), /2026-03-13: unknown series "AUD"/);
  await assertRefused(boc, '{"observations":[]}', /the document holds no rates/);
  await assertRefused(boc, '{"observations":{}}', /"observations": expected an array/);
});

test('when URLs are asked for, then the latest observation or a range of the FX_RATES_DAILY group is named', () => {
  const group = 'https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json';
  assert.deepEqual(boc.urls(), [`${group}?recent=1`]);
  assert.deepEqual(boc.urls({ from: '2026-03-12', to: '2026-03-18' }), [`${group}?start_date=2026-03-12&end_date=2026-03-18`]);
});
