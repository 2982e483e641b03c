import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bom } from '../../../src/ingest/sources/bom.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreBytes, moreText } from '../../helpers/more-provider-fixtures-2.js';

const FILE = MORE_FILES_2.bom;

test('when the recorded range is parsed, then it gives four days of MNT per 1 unit, thousands commas dropped, metals per ounce', async () => {
  const days = await bom.parse(moreBytes(FILE), FILE);
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [['2026-05-19', 38], ['2026-05-20', 38], ['2026-05-21', 38], ['2026-05-22', 38]]);
  const values = valuesOn(days, '2026-05-22');
  assert.equal(values.get('USD'), '3576.42', '"USD":"3,576.42"');
  assert.equal(values.get('EUR'), '4151.69', '"EUR":"4,151.69"');
  assert.equal(values.get('XAU'), '16172267.24', '"XAU":"16,172,267.24" MNT per troy ounce');
  assert.equal(values.get('XDR'), '4887.93', 'labelled "SDR":"4,887.93"');
  assert.equal(values.get('IDR'), '0.2', '"0.20"');
  assert.equal(values.has('SDR'), false);
  assert.equal(values.has('MNT'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded days', async () => {
  await assertCodesAreRecorded(bom, [FILE]);
});

test('when a value is an empty string, then that currency has no value that day', async () => {
  const days = await bom.parse(Buffer.from(edited(moreText(FILE), '"JPY":"22.47"', '"JPY":""')), 'empty.json');
  assert.equal(valuesOn(days, '2026-05-22').has('JPY'), false);
  assert.equal(valuesOn(days, '2026-05-22').size, 37);
});

test('when the recorded range is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(FILE);
  await assertRefused(bom, edited(text, '"USD":"3,576.42"', '"USD":"3576,42"'), /2026-05-22 currency=USD: invalid rate "3576,42" \(expected digits grouped by commas/);
  await assertRefused(bom, edited(text, '"USD":"3,576.42"', '"USD":"35,76.42"'), /2026-05-22 currency=USD: invalid rate "35,76.42"/);
  await assertRefused(bom, edited(text, '"USD":"3,576.42"', '"USD":3576.42'), /2026-05-22 currency=USD: expected a string, got the number/);
  await assertRefused(bom, edited(text, '"USD":"3,576.42"', '"USD":"0.00"'), /2026-05-22 currency=USD: rate must be greater than zero/);
  await assertRefused(bom, edited(text, '"JPY":"22.47"', '"XDR":"22.47"'), /2026-05-22 currency=XDR appears twice/);
  await assertRefused(bom, edited(text, '"JPY":"22.47"', '"jpy":"22.47"'), /2026-05-22: invalid currency "jpy"/);
  await assertRefused(bom, edited(text, '"RATE_DATE":"2026-05-21"', '"RATE_DATE":"2026-05-22"'), /day 2026-05-22 appears twice/);
  await assertRefused(bom, edited(text, '"RATE_DATE":"2026-05-21"', '"RATE_DATE":"21.05.2026"'), /day #2 has an invalid date "21.05.2026"/);
  await assertRefused(bom, edited(text, '"success":true', '"success":false'), /not marked "success": true/);
  await assertRefused(bom, '{"success":true,"data":[]}', /the document holds no rates/);
});

test('when URLs are asked for, then it is the endpoint the range is posted to', () => {
  assert.deepEqual(bom.urls(), ['https://www.mongolbank.mn/en/currency-rate-movement/data']);
  assert.deepEqual(bom.urls({ from: '2026-05-19', to: '2026-05-22' }), bom.urls());
});
