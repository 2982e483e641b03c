import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bnr } from '../../../src/ingest/sources/bnr.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.bnr;
const LAST_JPY = '<Rate currency="JPY" multiplier="100">2.8404</Rate>';
const LAST_XAU = '<Rate currency="XAU">633.3435</Rate>';

test('when the recorded year file is parsed, then it gives 157 days of RON per 1 unit, multipliers divided out and gold per troy ounce', async () => {
  const days = await bnr.parse(moreProviderBytes('bnr', FILE), FILE);
  assert.equal(days.length, 157);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2026-01-05', '2026-08-19']);
  assert.ok(days.every((day) => day.values.size === 37), 'thirty-seven currencies every day');
  assertCodesOf(bnr, days);
  const last = valuesOn(days, '2026-08-19');
  assert.equal(last.get('EUR'), '5.2452', '5.2452 RON per EUR');
  assert.equal(last.get('JPY'), '0.028404', '2.8404 RON per 100 JPY');
  assert.equal(last.get('KRW'), '0.003252', '0.3252 RON per 100 KRW');
  assert.equal(last.get('XDR'), '6.188', 'written 6.1880');
  assert.equal(last.get('XAU'), '19699.1848586808', '633.3435 RON per gram × 31.1034768 g per troy ounce');
  assert.equal(valuesOn(days, '2026-01-05').get('XAU'), '19325.7254127432', '621.3365 RON per gram');
  assert.equal(last.has('RON'), false, 'the base is implicit');
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('bnr', FILE);
  const last = (from: string, to: string) => text.slice(0, text.lastIndexOf(from)) + to + text.slice(text.lastIndexOf(from) + from.length);
  await assertRefused(bnr, last(LAST_JPY, LAST_JPY.replace('2.8404', '2,8404')), /2026-08-19 currency=JPY: invalid rate "2,8404"/);
  await assertRefused(bnr, last(LAST_JPY, LAST_JPY.replace('"100"', '"50"')), /2026-08-19 currency=JPY: invalid nominal "50"/);
  await assertRefused(bnr, last(LAST_JPY, LAST_JPY.replace('"JPY"', '"EUR"')), /2026-08-19 currency=EUR appears twice/);
  await assertRefused(bnr, last(LAST_JPY, LAST_JPY.replace('2.8404', '')), /2026-08-19 currency=JPY: invalid rate ""/);
  await assertRefused(bnr, last(LAST_XAU, '<Rate currency="XAU" multiplier="10">633.3435</Rate>'), /2026-08-19 currency=XAU: a metal per gram with a multiplier "10"/);
  await assertRefused(bnr, edited(text, '<Cube date="2026-08-19">', '<Cube date="19.08.2026">'), /Cube #157 has an invalid date "19.08.2026"/);
  await assertRefused(bnr, edited(text, '<Cube date="2026-08-19">', '<Cube>'), /Cube #157 has no date/);
  await assertRefused(bnr, edited(text, '<OrigCurrency>RON</OrigCurrency>', '<OrigCurrency>EUR</OrigCurrency>'), /OrigCurrency is "EUR"/);
  await assertRefused(bnr, text.slice(0, -20), /malformed XML/);
  await assertRefused(bnr, text.replace(/<Cube date.*<\/Cube>/s, ''), /the document holds no rates/);
});

test('when URLs are asked for, then the latest is the daily file and a range the year files it spans', () => {
  assert.deepEqual(bnr.urls(), ['https://curs.bnr.ro/nbrfxrates.xml']);
  assert.deepEqual(bnr.urls({ from: '2025-12-01', to: '2026-08-19' }), [
    'https://curs.bnr.ro/files/xml/years/nbrfxrates2025.xml',
    'https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml',
  ]);
});
