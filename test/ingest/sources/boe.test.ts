import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boe } from '../../../src/ingest/sources/boe.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.boe;

test('when the recorded spot series are parsed, then they give four days of units per 1 GBP, kept as written', async () => {
  const days = await boe.parse(moreProviderBytes('boe', FILE), FILE);
  assert.deepEqual(days.map((day) => day.date), ['2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20']);
  assert.ok(days.every((day) => day.values.size === 26), 'twenty-six series every day');
  assertCodesOf(boe, days);
  const first = valuesOn(days, '2026-03-17');
  assert.equal(first.get('USD'), '1.3343', 'XUDLUSS 1.3343 USD per GBP');
  assert.equal(first.get('EUR'), '1.1577', 'XUDLERS');
  assert.equal(first.get('JPY'), '212.1937', 'XUDLJYS');
  assert.equal(first.get('RON'), '5.8963', 'XUDLZOS4');
  assert.equal(first.get('TRY'), '58.9829', 'XUDLBK95');
  assert.equal(first.get('ILS'), '4.1357', 'XUDLBK78');
  assert.equal(valuesOn(days, '2026-03-18').get('HUF'), '453.5645', 'XUDLBK33');
  assert.equal(valuesOn(days, '2026-03-20').get('DKK'), '8.6102', 'XUDLDKS');
  assert.equal(first.has('GBP'), false, 'the base is implicit');
});

test('when a cell is empty, then that currency has no value that day and the others stay', async () => {
  const text = moreProviderText('boe', FILE);
  const days = await boe.parse(Buffer.from(edited(text, '17 Mar 2026,1.3343,', '17 Mar 2026,,')), FILE);
  assert.equal(valuesOn(days, '2026-03-17').has('USD'), false);
  assert.equal(valuesOn(days, '2026-03-17').size, 25);
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('boe', FILE);
  await assertRefused(boe, edited(text, '17 Mar 2026,1.3343,', '17 Mar 2026,1.3343x,'), /2026-03-17 currency=USD: invalid rate "1.3343x"/);
  await assertRefused(boe, edited(text, '17 Mar 2026,1.3343,', '17 Mar 2026,N/A,'), /2026-03-17 currency=USD: invalid rate "N\/A"/);
  await assertRefused(boe, edited(text, '17 Mar 2026,', '2026-03-17,'), /line 2 has an invalid date "2026-03-17"/);
  await assertRefused(boe, edited(text, '17 Mar 2026,', '31 Feb 2026,'), /line 2 has an invalid date "31 Feb 2026"/);
  await assertRefused(boe, edited(text, '18 Mar 2026,', '17 Mar 2026,'), /the row of 2026-03-17 appears twice/);
  await assertRefused(boe, edited(text, ',XUDLZOS4', ',XUDLERS'), /2026-03-17 currency=EUR appears twice/);
  await assertRefused(boe, edited(text, ',XUDLZOS4', ',XUDLZZZ'), /line 1: unknown series "XUDLZZZ"/);
  await assertRefused(boe, edited(text, ',5.8963', ''), /2026-03-17: 26 fields, the header has 27/);
  await assertRefused(boe, text.split('\r\n')[0]!, /the document holds no rates/);
  await assertRefused(boe, '', /the document holds no rates/);
});

test('when URLs are asked for, then a range names its days in the database\'s DD/Mon/YYYY and every series', () => {
  const [url] = boe.urls({ from: '2026-03-17', to: '2026-03-20' });
  assert.equal(
    url,
    'https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?CSVF=TN&Datefrom=17/Mar/2026&Dateto=20/Mar/2026' +
      '&SeriesCodes=XUDLUSS,XUDLERS,XUDLJYS,XUDLCDS,XUDLSFS,XUDLADS,XUDLNDS,XUDLNKS,XUDLSKS,XUDLDKS,XUDLHDS,XUDLSGS,XUDLSRS,XUDLZRS,XUDLTWS,' +
      'XUDLBK25,XUDLBK33,XUDLBK47,XUDLBK78,XUDLBK83,XUDLBK87,XUDLBK89,XUDLBK93,XUDLBK95,XUDLBK97,XUDLZOS4&UsingCodes=Y&csv.x=yes',
    'the recorded request',
  );
  assert.match(boe.urls()[0]!, /Datefrom=\d{2}\/[A-Z][a-z]{2}\/\d{4}&Dateto=now&/);
});
