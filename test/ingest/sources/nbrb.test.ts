import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbrb } from '../../../src/ingest/sources/nbrb.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [DAILY, DYNAMICS] = MORE_PROVIDER_FILES.nbrb;
const JPY = '"Cur_Abbreviation":"JPY","Cur_Scale":100,"Cur_Name":"Иен","Cur_OfficialRate":1.8494';

test('when the recorded daily list is parsed, then it gives one day of BYN per 1 unit, Cur_Scale divided out', async () => {
  const days = await nbrb.parse(moreProviderBytes('nbrb', DAILY), DAILY);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-17']);
  assert.equal(days[0]!.values.size, 30);
  assertCodesOf(nbrb, days);
  const day = valuesOn(days, '2026-03-17');
  assert.equal(day.get('USD'), '2.9463', '2.9463 BYN per USD');
  assert.equal(day.get('EUR'), '3.3741');
  assert.equal(day.get('JPY'), '0.018494', '1.8494 BYN per 100 JPY');
  assert.equal(day.get('VND'), '0.000112071', '11.2071 BYN per 100000 VND');
  assert.equal(day.get('XDR'), '4.0009');
  assert.equal(day.has('BYN'), false, 'the base is implicit');
});

test('when a rate is null, then that currency has no value', async () => {
  const days = await nbrb.parse(Buffer.from(edited(moreProviderText('nbrb', DAILY), JPY, JPY.replace('1.8494', 'null'))), DAILY);
  assert.equal(days[0]!.values.has('JPY'), false);
  assert.equal(days[0]!.values.size, 29);
});

test('when the recorded list is altered to be malformed, or a dynamics answer is given, then the whole file is refused', async () => {
  const text = moreProviderText('nbrb', DAILY);
  await assertRefused(nbrb, edited(text, JPY, JPY.replace('1.8494', '"1.8494"')), /2026-03-17 currency=JPY "Cur_OfficialRate": expected a number/);
  await assertRefused(nbrb, edited(text, JPY, JPY.replace('1.8494', '1.8494e0')), /2026-03-17 currency=JPY: invalid rate "1.8494e0"/);
  await assertRefused(nbrb, edited(text, JPY, JPY.replace('"Cur_Scale":100', '"Cur_Scale":3')), /2026-03-17 currency=JPY: invalid nominal "3"/);
  await assertRefused(nbrb, edited(text, JPY, JPY.replace('"Cur_Scale":100,', '')), /2026-03-17 currency=JPY "Cur_Scale": expected a number, got nothing/);
  await assertRefused(nbrb, edited(text, JPY, JPY.replace('"JPY"', '"USD"')), /2026-03-17 currency=USD appears twice/);
  await assertRefused(nbrb, edited(text, '"Cur_ID":508,"Date":"2026-03-17T00:00:00"', '"Cur_ID":508,"Date":"17.03.2026"'), /rate #\d+: invalid Date "17.03.2026"/);
  await assertRefused(nbrb, moreProviderBytes('nbrb', DYNAMICS), /2026-03-01 rate #1 "Cur_Abbreviation": expected a string, got nothing/);
  await assertRefused(nbrb, '[]', /the document holds no rates/);
});

test('when URLs are asked for, then the latest is the daily list and a range one list per day', () => {
  assert.deepEqual(nbrb.urls(), ['https://api.nbrb.by/exrates/rates?periodicity=0']);
  assert.deepEqual(nbrb.urls({ from: '2026-03-16', to: '2026-03-17' }), [
    'https://api.nbrb.by/exrates/rates?ondate=2026-03-16&periodicity=0',
    'https://api.nbrb.by/exrates/rates?ondate=2026-03-17&periodicity=0',
  ]);
});
