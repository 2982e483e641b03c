import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nb } from '../../../src/ingest/sources/nb.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.nb;
const JPY = 'B,JPY,NOK,SP,4,false,2,C,2026-03-24,6.1065';

test('when the recorded EXR rows are parsed, then they give seven days of NOK per 1 unit, UNIT_MULT divided out and the indices left out', async () => {
  const days = await nb.parse(moreProviderBytes('nb', FILE), FILE);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-23', '2026-03-24']);
  assert.ok(days.every((day) => day.values.size === 36), 'thirty-six currencies every day (38 series less I44 and TWI)');
  assertCodesOf(nb, days);
  const last = valuesOn(days, '2026-03-24');
  assert.equal(last.get('EUR'), '11.2305', '11.2305 NOK per EUR');
  assert.equal(last.get('USD'), '9.7049');
  assert.equal(last.get('JPY'), '0.061065', '6.1065 NOK per 100 JPY (UNIT_MULT 2)');
  assert.equal(last.get('IDR'), '0.00057457', '0.057457 NOK per 100 IDR');
  assert.equal(last.get('XDR'), '13.2271', 'calculated by the bank, kept');
  assert.equal(last.has('TWI'), false, 'an index, not a currency');
  assert.equal(last.has('NOK'), false, 'the base is implicit');
});

test('when an OBS_VALUE is empty, then that currency has no value that day', async () => {
  const days = await nb.parse(Buffer.from(edited(moreProviderText('nb', FILE), JPY, JPY.replace(',6.1065', ','))), FILE);
  assert.equal(valuesOn(days, '2026-03-24').has('JPY'), false);
  assert.equal(valuesOn(days, '2026-03-24').size, 35);
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('nb', FILE);
  await assertRefused(nb, edited(text, JPY, JPY.replace('6.1065', '6,1065')), /line \d+: 11 fields, the header has 10/);
  await assertRefused(nb, edited(text, JPY, JPY.replace('6.1065', '6.1065e0')), /2026-03-24 currency=JPY: invalid rate "6.1065e0"/);
  await assertRefused(nb, edited(text, JPY, JPY.replace(',2,C,', ',x,C,')), /2026-03-24 currency=JPY: invalid UNIT_MULT "x"/);
  await assertRefused(nb, edited(text, JPY, JPY.replace('2026-03-24', '24.03.2026')), /line \d+ has an invalid date "24.03.2026"/);
  await assertRefused(nb, edited(text, JPY, JPY.replace(',NOK,', ',SEK,')), /2026-03-24 currency=JPY: series "B.JPY.SEK.SP" is not a business-day spot rate in NOK/);
  await assertRefused(nb, edited(text, JPY, JPY.replace('B,JPY', 'B,USD').replace(',2,C', ',0,C')), /2026-03-24 currency=USD appears twice/);
  await assertRefused(nb, edited(text, 'TIME_PERIOD,OBS_VALUE', 'TIME,OBS_VALUE'), /line 1: no column "TIME_PERIOD"/);
  await assertRefused(nb, text.split('\n')[0]!, /the document holds no rates/);
});

test('when URLs are asked for, then the latest observation or a range of the EXR dataset is named', () => {
  const exr = 'https://data.norges-bank.no/api/data/EXR/B..NOK.SP';
  assert.deepEqual(nb.urls(), [`${exr}?format=csvdata&lastNObservations=1`]);
  assert.deepEqual(nb.urls({ from: '2026-03-16', to: '2026-03-24' }), [`${exr}?endPeriod=2026-03-24&format=csvdata&startPeriod=2026-03-16`]);
});
