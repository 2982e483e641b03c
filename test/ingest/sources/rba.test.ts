import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rba } from '../../../src/ingest/sources/rba.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.rba;
const MAR20 = '20-Mar-2026,0.7088,66.10,4.8870,112.27,0.6132,1061.60,0.5288,0.9073,66.10,23.18,1.2052,22.66,2.7900,12039,18650,,3.0565,5.5530,0.9733,,0.5595,42.59,0.5217';

test('when the recorded F11.1 table is parsed, then it gives 808 days of units per 1 AUD, the index left out and SDR as XDR', async () => {
  const days = await rba.parse(moreProviderBytes('rba', FILE), FILE);
  assert.equal(days.length, 808);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2023-01-03', '2026-03-20']);
  assertCodesOf(rba, days);
  const last = valuesOn(days, '2026-03-20');
  assert.equal(last.get('USD'), '0.7088', 'A$1=USD 0.7088');
  assert.equal(last.get('KRW'), '1061.6', 'written 1061.60');
  assert.equal(last.get('IDR'), '12039');
  assert.equal(last.get('XDR'), '0.5217', 'the "SDR" column');
  assert.equal(last.has('AED'), false, 'an empty cell is no value');
  assert.equal(last.has('ZAR'), false, 'an empty cell is no value');
  assert.equal(last.size, 20, 'twenty-two currency columns, AED and ZAR empty');
  assert.equal(last.has('AUD'), false, 'the base is implicit');
  assert.ok(days.every((day) => !day.values.has('TWI') && !day.values.has('SDR')), 'no index, no non-ISO label');
  assert.equal(valuesOn(days, '2023-01-03').get('EUR'), '0.64', 'written 0.6400');
});

test('when the recorded table is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('rba', FILE);
  await assertRefused(rba, edited(text, MAR20, MAR20.replace('0.7088', '0.70.88')), /2026-03-20 currency=USD: invalid rate "0.70.88"/);
  await assertRefused(rba, edited(text, MAR20, MAR20.replace(',0.5217', ',0.5217,')), /2026-03-20: 25 fields, the header has 24/);
  await assertRefused(rba, edited(text, MAR20, MAR20.replace(',0.5217', '')), /2026-03-20: 23 fields, the header has 24/);
  await assertRefused(rba, edited(text, MAR20, MAR20.replace('20-Mar-2026', '19-Mar-2026')), /the row of 2026-03-19 appears twice/);
  await assertRefused(rba, edited(text, MAR20, MAR20.replace('20-Mar-2026', '31-Feb-2026')), /line \d+ has an invalid date "31-Feb-2026"/);
  await assertRefused(
    rba,
    edited(edited(text, 'Units,USD,Index,CNY', 'Units,USD,Index,JPY'), 'A$1=CNY', 'A$1=JPY'),
    /2023-01-03 currency=JPY appears twice/,
  );
  await assertRefused(rba, edited(text, 'Title,A$1=USD', 'Title,US$1=AUD'), /column 2 is "US\$1=AUD", expected "A\$1=USD"/);
  await assertRefused(rba, edited(text, 'Units,USD,', 'Unit,USD,'), /a day before the header's Units row/);
  await assertRefused(rba, text.slice(0, text.indexOf('03-Jan-2023')), /the document holds no rates/);
});

test('when URLs are asked for, then the latest and any range are the F11.1 table', () => {
  assert.deepEqual(rba.urls(), ['https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv']);
  assert.deepEqual(rba.urls({ from: '2026-03-02', to: '2026-03-20' }), ['https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv']);
});
