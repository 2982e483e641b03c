import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cba } from '../../../src/ingest/sources/cba.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { latest, range } = MORE_FILES_2.cba;

test('when the recorded range is parsed, then it gives 13 business days of AMD per 1 unit, nominals divided out, metals per troy ounce', async () => {
  const [days] = await parseAll(cba, [range]);
  assert.equal(days!.length, 13);
  assert.deepEqual([days![0]!.date, days!.at(-1)!.date], ['2026-03-02', '2026-03-18']);
  assert.ok(days!.every((day) => day.values.size === 30), 'thirty codes a day');
  const first = valuesOn(days!, '2026-03-02');
  assert.equal(first.get('EUR'), '442.38', '<Rate>442.38</Rate><Amount>1</Amount>');
  assert.equal(first.get('IRR'), '0.00028685', '0.028685 AMD per 100 IRR');
  const last = valuesOn(days!, '2026-03-18');
  assert.equal(last.get('JPY'), '2.3735', '23.735 AMD per 10 JPY');
  assert.equal(last.get('XAU'), '1893299.7362928', '60871 AMD per gram × 31.1034768');
  assert.equal(last.get('XAG'), '30272.391899904', '973.28 AMD per gram × 31.1034768');
  assert.equal(last.has('AMD'), false, 'the base is implicit');
});

test('when the recorded latest answer is parsed, then its day equals the same day of the range', async () => {
  const [one, many] = await parseAll(cba, [latest, range]);
  assert.deepEqual(one!.map((day) => day.date), ['2026-03-18']);
  assert.deepEqual(one![0]!.values, valuesOn(many!, '2026-03-18'));
  assert.equal(one![0]!.values.get('USD'), '377.39');
});

test('when the codes are listed, then they are the base and every code of the recorded answers', async () => {
  await assertCodesAreRecorded(cba, [latest, range]);
});

test('when a recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(range);
  const irr = '<Rate>0.028685</Rate><Amount>100</Amount><ISO>IRR</ISO><Diff>-0.000009</Diff><RateDate>2026-03-02T00:00:00+04:00</RateDate>';
  await assertRefused(cba, edited(text, irr, irr.replace('0.028685', '0,028685')), /2026-03-02 currency=IRR: invalid rate "0,028685"/);
  await assertRefused(cba, edited(text, irr, irr.replace('<Amount>100</Amount>', '<Amount>25</Amount>')), /2026-03-02 currency=IRR: invalid nominal "25"/);
  await assertRefused(cba, edited(text, irr, irr.replace('<Amount>100</Amount>', '')), /2026-03-02 currency=IRR lacks its Rate or Amount/);
  await assertRefused(cba, edited(text, irr, irr.replace('>IRR<', '>EUR<')), /2026-03-02 currency=EUR appears twice/);
  await assertRefused(cba, edited(text, irr, irr.replace('2026-03-02T00:00:00+04:00', '02.03.2026')), /row #6 RateDate: invalid "02.03.2026"/);
  await assertRefused(cba, edited(text, irr, irr.replace('2026-03-02T', '2026-02-30T')), /row #6 has an invalid date "2026-02-30"/);
  const one = moreText(latest);
  await assertRefused(cba, edited(one, '<ISO>XAU</ISO><Amount>1</Amount><Rate>60871</Rate>', '<ISO>XAU</ISO><Amount>1</Amount><Rate>-60871</Rate>'), /2026-03-18 currency=XAU: invalid rate "-60871"/);
  await assertRefused(cba, edited(one, '<CurrentDate>2026-03-18T00:00:00</CurrentDate>', ''), /CurrentDate: invalid ""/);
  await assertRefused(cba, edited(one, '</soap:Envelope>', ''), /malformed XML/);
  await assertRefused(cba, '<?xml version="1.0"?><Envelope><Body><Other/></Body></Envelope>', /neither an ExchangeRatesLatest nor/);
  await assertRefused(cba, '<?xml version="1.0"?><x/>', /not a SOAP answer/);
});

test('when URLs are asked for, then it is the SOAP endpoint', () => {
  assert.deepEqual(cba.urls(), ['https://api.cba.am/exchangerates.asmx']);
});
