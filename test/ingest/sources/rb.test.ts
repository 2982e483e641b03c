import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rb } from '../../../src/ingest/sources/rb.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.rb;
const EUR = '{"seriesId":"SEKEURPMI","date":"2026-03-27","value":10.878}';

test('when the recorded group 130 observations are parsed, then they give four days of SEK per 1 unit, SEKETT left out', async () => {
  const days = await rb.parse(moreProviderBytes('rb', FILE), FILE);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27']);
  assert.ok(days.every((day) => day.values.size === 29), 'twenty-nine currencies every day');
  assertCodesOf(rb, days);
  const last = valuesOn(days, '2026-03-27');
  assert.equal(last.get('EUR'), '10.878', 'SEKEURPMI 10.878');
  assert.equal(last.get('JPY'), '0.05907', 'SEKJPYPMI 0.05907 SEK per 1 JPY');
  assert.equal(last.get('IDR'), '0.00056', 'SEKIDRPMI');
  assert.equal(valuesOn(days, '2026-03-24').get('AUD'), '6.5', 'written 6.5');
  assert.equal(last.has('SEK'), false, 'the base (SEKETT = 1) is implicit');
});

test('when a value is null, then that currency has no value that day', async () => {
  const days = await rb.parse(Buffer.from(edited(moreProviderText('rb', FILE), EUR, EUR.replace('10.878', 'null'))), FILE);
  assert.equal(valuesOn(days, '2026-03-27').has('EUR'), false);
  assert.equal(valuesOn(days, '2026-03-27').size, 28);
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('rb', FILE);
  await assertRefused(rb, edited(text, EUR, EUR.replace('10.878', '"10.878"')), /2026-03-27 currency=EUR "value": expected a number, got the string "10.878"/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('10.878', '-10.878')), /2026-03-27 currency=EUR: invalid rate "-10.878"/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('10.878', '1.0878E1')), /2026-03-27 currency=EUR: invalid rate "1.0878E1"/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('2026-03-27', '27/03/2026')), /observation #\d+ has an invalid date "27\/03\/2026"/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('SEKEURPMI', 'SEKUSDPMI')), /2026-03-27 currency=USD appears twice/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('SEKEURPMI', 'SEKEURPFI')), /2026-03-27: unknown series "SEKEURPFI"/);
  await assertRefused(rb, edited(text, EUR, EUR.replace('"value":10.878', '"val":10.878')), /2026-03-27 currency=EUR "value": expected a number, got nothing/);
  await assertRefused(rb, '[]', /the document holds no rates/);
  await assertRefused(rb, '{}', /the document: expected an array/);
});

test('when URLs are asked for, then a range of group 130 is named, or the last week for the latest', () => {
  assert.deepEqual(rb.urls({ from: '2026-03-24', to: '2026-03-28' }), ['https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-28']);
  assert.match(rb.urls()[0]!, /^https:\/\/api\.riksbank\.se\/swea\/v1\/Observations\/ByGroup\/130\/\d{4}-\d{2}-\d{2}$/);
});
