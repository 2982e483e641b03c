import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbg } from '../../../src/ingest/sources/nbg.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [MAR02, MAR03] = MORE_PROVIDER_FILES.nbg;
const JPY = '"code":"JPY","quantity":100,"rateFormated":"1.7162","diffFormated":"0.0005","rate":1.7162';

test('when the two recorded answers are parsed, then each gives the day its rates are in force, GEL per 1 unit', async () => {
  const first = await nbg.parse(moreProviderBytes('nbg', MAR02), MAR02);
  const second = await nbg.parse(moreProviderBytes('nbg', MAR03), MAR03);
  assert.deepEqual(first.map((day) => day.date), ['2026-02-28'], 'asked for 03-02: the rates in force since 02-28');
  assert.deepEqual(second.map((day) => day.date), ['2026-03-03']);
  assert.ok([...first, ...second].every((day) => day.values.size === 42), 'forty-two currencies');
  assertCodesOf(nbg, [...first, ...second]);
  const mar03 = valuesOn(second, '2026-03-03');
  assert.equal(mar03.get('EUR'), '3.1606', '3.1606 GEL per EUR');
  assert.equal(mar03.get('USD'), '2.6922');
  assert.equal(mar03.get('JPY'), '0.017162', '1.7162 GEL per 100 JPY');
  assert.equal(mar03.get('IRR'), '0.00000205', '0.0205 GEL per 10000 IRR');
  assert.equal(mar03.get('AMD'), '0.0071407', '7.1407 GEL per 1000 AMD');
  assert.equal(mar03.has('GEL'), false, 'the base is implicit');
});

test('when the recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('nbg', MAR03);
  await assertRefused(nbg, edited(text, JPY, JPY.replace('"rate":1.7162', '"rate":"1.7162"')), /2026-03-03 currency=JPY "rate": expected a number/);
  await assertRefused(nbg, edited(text, JPY, JPY.replace('"rate":1.7162', '"rate":-1.7162')), /2026-03-03 currency=JPY: invalid rate "-1.7162"/);
  await assertRefused(nbg, edited(text, JPY, JPY.replace('"quantity":100', '"quantity":25')), /2026-03-03 currency=JPY: invalid nominal "25"/);
  await assertRefused(nbg, edited(text, JPY, JPY.replace('"quantity":100,', '')), /2026-03-03 currency=JPY "quantity": expected a number, got nothing/);
  await assertRefused(nbg, edited(text, JPY, JPY.replace('"JPY","quantity":100', '"USD","quantity":1')), /2026-03-03 currency=USD appears twice/);
  await assertRefused(nbg, edited(text, '[{"date":"2026-03-03T00:00:00.000Z"', '[{"date":"03.03.2026"'), /publication #1 "date": invalid day "03.03.2026"/);
  await assertRefused(nbg, edited(text, '[{"date":"2026-03-03T00:00:00.000Z"', '[{"date":"2026-03-04T00:00:00.000Z"'), /2026-03-04 currency=AED: valid from 2026-03-03, not the publication's day/);
  await assertRefused(nbg, '[]', /the document holds no rates/);
  await assertRefused(nbg, '[{"date":"2026-03-03T00:00:00.000Z","currencies":[]}]', /the document holds no rates/);
});

test('when URLs are asked for, then a range is one request per day and the latest the bare currencies endpoint', () => {
  assert.deepEqual(nbg.urls(), ['https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/']);
  assert.deepEqual(nbg.urls({ from: '2026-03-02', to: '2026-03-03' }), [
    'https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=2026-03-02',
    'https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=2026-03-03',
  ]);
});
