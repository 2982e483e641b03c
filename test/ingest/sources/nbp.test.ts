import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { nbp } from '../../../src/ingest/sources/nbp.js';
import { assertRefused, edited, PROVIDER_FILES, providerBytes, providerText, valuesOn } from '../../helpers/provider-fixtures.js';

test('when the recorded table A is parsed, then it gives its four days, PLN per 1 unit exactly as written', async () => {
  const days = await nbp.parse(providerBytes(PROVIDER_FILES.nbpA), PROVIDER_FILES.nbpA);
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [
    ['2026-03-02', 32], ['2026-03-03', 32], ['2026-03-04', 32], ['2026-03-05', 32],
  ]);
  const first = valuesOn(days, '2026-03-02');
  assert.equal(first.get('EUR'), '4.2304');
  assert.equal(first.get('USD'), '3.6056');
  assert.equal(first.get('HUF'), '0.011155');
  assert.equal(first.get('CAD'), '2.641', 'the JSON number 2.6410 keeps its digits, trailing zero dropped');
  assert.equal(first.get('XDR'), '4.9266');
  assert.equal(first.has('PLN'), false, 'the base is implicit');
});

test('when a table starts with a byte-order mark, then it parses as without one', async () => {
  const bytes = providerBytes(PROVIDER_FILES.nbpA);
  assert.deepEqual(await nbp.parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), 'bom'), await nbp.parse(bytes, 'plain'));
});

test('when the recorded table B is parsed, then its Wednesday holds 116 less-traded currencies and no EUR', async () => {
  const days = await nbp.parse(providerBytes(PROVIDER_FILES.nbpB), PROVIDER_FILES.nbpB);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-04']);
  const values = valuesOn(days, '2026-03-04');
  assert.equal(values.size, 116);
  assert.equal(values.get('AFN'), '0.056626');
  assert.equal(values.get('MGA'), '0.000881');
  assert.equal(values.get('PAB'), '3.677');
  assert.equal(values.get('ZWG'), '0.1429');
  assert.equal(values.has('EUR'), false);
});

test('when tables A and B of one day are combined, then the day holds both, and a currency with two values is refused', async () => {
  const a = await nbp.parse(providerBytes(PROVIDER_FILES.nbpA), 'a');
  const b = await nbp.parse(providerBytes(PROVIDER_FILES.nbpB), 'b');
  const wednesday = valuesOn(combineDocuments([a, b], 'a + b'), '2026-03-04');
  assert.equal(wednesday.size, 32 + 116);
  assert.equal(wednesday.get('EUR'), '4.2685');
  assert.equal(wednesday.get('AFN'), '0.056626');
  const clash = [{ date: '2026-03-04', values: new Map([['EUR', '4.3']]) }];
  assert.throws(() => combineDocuments([a, clash], 'a + c'), /a \+ c: 2026-03-04 currency=EUR has two values, 4.2685 and 4.3/);
});

test('when a recorded table is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = providerText(PROVIDER_FILES.nbpA);
  await assertRefused(nbp, edited(text, '"mid":3.6056', '"mid":"3.6056"'), /2026-03-02 currency=USD "mid": expected a number, got the string "3.6056"/);
  await assertRefused(nbp, edited(text, '"mid":3.6056', '"mid":3.6056e0'), /2026-03-02 currency=USD: invalid rate "3.6056e0"/);
  await assertRefused(nbp, edited(text, '"mid":3.6056', '"mid":-3.6056'), /2026-03-02 currency=USD: invalid rate "-3.6056"/);
  await assertRefused(nbp, edited(text, '"mid":3.6056', '"mid":0.0000'), /2026-03-02 currency=USD: rate must be greater than zero/);
  await assertRefused(nbp, edited(text, '"mid":3.6056', '"mid":3.605600000000000000000000'), /currency=USD: rate "3\.6056.*" has 25 digits, more than the 24/);
  await assertRefused(nbp, edited(text, '"code":"USD","mid":3.6056', '"code":"usd","mid":3.6056'), /2026-03-02: invalid currency "usd"/);
  await assertRefused(nbp, edited(text, '"code":"HKD","mid":0.4609', '"code":"USD","mid":0.4609'), /2026-03-02 currency=USD appears twice/);
  await assertRefused(nbp, edited(text, '"effectiveDate":"2026-03-03"', '"effectiveDate":"2026-02-30"'), /table A #2 has an invalid date "2026-02-30"/);
  await assertRefused(nbp, edited(text, '"effectiveDate":"2026-03-03"', '"effectiveDate":"2026-03-02"'), /table A of 2026-03-02 appears twice/);
  await assertRefused(nbp, edited(text, '"table":"A","no":"042', '"table":"C","no":"042'), /table #2: table "C" is not an average-rate table/);
  await assertRefused(nbp, edited(text, '"code":"USD","mid":3.6056}', '"code":"USD","mid":3.6056,"mid":3.6}'), /not valid JSON: .*[Dd]uplicate key/);
  await assertRefused(nbp, text.slice(0, 4000), /not valid JSON/);
  await assertRefused(nbp, '[]', /the document holds no rates/);
  await assertRefused(nbp, '{"table":"A"}', /the document: expected an array, got an object/);
  await assertRefused(nbp, Buffer.from([0x5b, 0xff, 0x5d]), /not valid UTF-8/);
  await assertRefused(nbp, '['.repeat(200_000), /not valid JSON/);
});

test('when URLs are asked for, then each table has one, for the latest or for a range', () => {
  assert.deepEqual(nbp.urls(), [
    'https://api.nbp.pl/api/exchangerates/tables/A/?format=json',
    'https://api.nbp.pl/api/exchangerates/tables/B/?format=json',
  ]);
  assert.deepEqual(nbp.urls({ from: '2026-03-01', to: '2026-03-05' }), [
    'https://api.nbp.pl/api/exchangerates/tables/A/2026-03-01/2026-03-05/?format=json',
    'https://api.nbp.pl/api/exchangerates/tables/B/2026-03-01/2026-03-05/?format=json',
  ]);
});
