import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hkma } from '../../../src/ingest/sources/hkma.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.hkma;
const FEB27 = '"end_of_day":"2026-02-27","usd":7.825,"gbp":10.536,"jpy":0.05015';

test('when the recorded records are parsed, then they give four days of HKD per 1 unit, nulls and the NEER indices left out', async () => {
  const days = await hkma.parse(moreProviderBytes('hkma', FILE), FILE);
  assert.deepEqual(days.map((day) => day.date), ['2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28'], 'sorted, the API answers newest first');
  assertCodesOf(hkma, days);
  const feb27 = valuesOn(days, '2026-02-27');
  assert.equal(feb27.get('USD'), '7.825', '7.825 HKD per USD');
  assert.equal(feb27.get('EUR'), '9.236');
  assert.equal(feb27.get('IDR'), '0.0004666');
  assert.equal(feb27.get('XDR'), '10.75757525', '"special_drawing_rights"');
  assert.equal(feb27.size, 18);
  assert.equal(valuesOn(days, '2026-02-28').has('XDR'), false, 'null on the Saturday: no value');
  assert.equal(valuesOn(days, '2026-02-28').get('USD'), '7.8245', 'the published figure, recovered from the double written as 7.8245000000000005');
  assert.ok(days.every((day) => !day.values.has('DEM') && !day.values.has('NEE')), 'legacy nulls and indices left out');
  assert.equal(feb27.has('HKD'), false, 'the base is implicit');
});

test('when the recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('hkma', FILE);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"usd":7.825', '"usd":"7.825"')), /2026-02-27 currency=USD: expected a number, got the string "7.825"/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"usd":7.825', '"usd":-7.825')), /2026-02-27 currency=USD: invalid rate "-7.825"/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"usd":7.825', '"usd":7.825000001')), /2026-02-27 currency=USD: rate "7.825000001" has more than the 8 decimals HKMA publishes/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"usd":7.825', '"usd":7.8250000000001')), /rate "7.8250000000001" has more than the 8 decimals/); // a real digit, not a double's noise
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"usd":7.825', '"usd":{}')), /2026-02-27 currency=USD: expected a number, got an object/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"gbp"', '"usd"')), /not valid JSON: Duplicate key 'usd'/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"gbp"', '"us_dollar"')), /2026-02-27: unknown key "us_dollar"/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"jpy"', '"hkd"')), /2026-02-27 currency=HKD: the source's own base currency is quoted/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('2026-02-27', '2026-02-28')), /the record of 2026-02-28 appears twice/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('2026-02-27', '27/02/2026')), /record #2 has an invalid date "27\/02\/2026"/);
  await assertRefused(hkma, edited(text, FEB27, FEB27.replace('"end_of_day":"2026-02-27",', '')), /record #2 "end_of_day": expected a string, got nothing/);
  await assertRefused(hkma, edited(text, '"success":true', '"success":false'), /the API answered without success: "No error found"/);
  await assertRefused(hkma, '{"header":{"success":true},"result":{"datasize":0,"records":[]}}', /the document holds no rates/);
});

test('when URLs are asked for, then a range is the recorded query, page by page past 100 days', () => {
  const daily = 'https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily';
  assert.deepEqual(hkma.urls({ from: '2026-02-25', to: '2026-02-28' }), [
    `${daily}?choose=end_of_day&from=2026-02-25&offset=0&pagesize=100&sortby=end_of_day&sortorder=desc&to=2026-02-28`,
  ]);
  assert.equal(hkma.urls({ from: '2025-01-01', to: '2025-12-31' }).length, 4, '365 days: four pages');
  assert.deepEqual(hkma.urls(), [`${daily}?choose=end_of_day&sortby=end_of_day&sortorder=desc&offset=0&pagesize=7`]);
});
