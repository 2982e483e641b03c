import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbe } from '../../../src/ingest/sources/nbe.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const FILES = MORE_FILES_2.nbe;

test('when the three recorded days are parsed, then each gives 19 codes in ETB per 1 unit, the weighted average', async () => {
  const documents = await parseAll(nbe, FILES);
  assert.deepEqual(documents.flat().map((day) => [day.date, day.values.size]), [['2026-05-18', 19], ['2026-05-19', 19], ['2026-05-20', 19]]);
  const values = valuesOn(documents[0]!, '2026-05-18');
  assert.equal(values.get('EUR'), '183.7377', 'buying 182.8236, selling 184.6518, weighted_average 183.7377');
  assert.equal(values.get('USD'), '157.227');
  assert.equal(values.get('JPY'), '0.9965', 'per 1 yen');
  assert.equal(values.get('XDR'), '216.8414', '"SDR", code XDR');
  assert.equal(values.get('DJF'), '0.8938');
  assert.equal(values.has('ETB'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded days', async () => {
  await assertCodesAreRecorded(nbe, FILES);
});

test('when a weighted average is null or empty, then that currency has no value that day', async () => {
  const text = moreText(FILES[0]);
  for (const blank of ['null', '""']) {
    const days = await nbe.parse(Buffer.from(edited(text, '"weighted_average":"183.7377"', `"weighted_average":${blank}`)), 'blank.json');
    assert.equal(valuesOn(days, '2026-05-18').has('EUR'), false, blank);
    assert.equal(valuesOn(days, '2026-05-18').size, 18, blank);
  }
});

test('when a recorded day is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(FILES[0]);
  const eur = '"weighted_average":"183.7377"';
  await assertRefused(nbe, edited(text, eur, '"weighted_average":"183,7377"'), /2026-05-18 currency=EUR: invalid rate "183,7377"/);
  await assertRefused(nbe, edited(text, eur, '"weighted_average":183.7377'), /2026-05-18 currency=EUR "weighted_average": expected a string, got the number/);
  await assertRefused(nbe, edited(text, '"name":"JAPANESE YEN","code":"JPY"', '"name":"JAPANESE YEN","code":"EUR"'), /2026-05-18 currency=EUR appears twice/);
  await assertRefused(nbe, edited(text, '"name":"JAPANESE YEN","code":"JPY"', '"name":"JAPANESE YEN"'), /2026-05-18 row #1 "currency.code": expected a string, got nothing/);
  await assertRefused(nbe, edited(text, `"date":"2026-05-18",${eur}`, `"date":"18.05.2026",${eur}`), /row #\d+ has an invalid date "18.05.2026"/);
  await assertRefused(nbe, edited(text, '"success":true', '"success":false'), /not marked "success": true/);
  await assertRefused(nbe, '{"success":true,"data":[]}', /the document holds no rates/);
  await assertRefused(nbe, text.slice(0, 500), /not valid JSON/);
});

test('when URLs are asked for, then the latest is today\'s day and a range is one request per day', () => {
  const api = 'https://api.nbe.gov.et/api/filter-exchange-rates';
  assert.deepEqual(nbe.urls({ from: '2026-05-18', to: '2026-05-20' }), [`${api}?date=2026-05-18`, `${api}?date=2026-05-19`, `${api}?date=2026-05-20`]);
  const [latest] = nbe.urls();
  const day = /date=([\d-]+)$/.exec(latest!)?.[1];
  assert.ok(Math.abs(Date.parse(day!) - Date.parse(new Date().toISOString().slice(0, 10))) <= 86_400_000, `${latest} is today (UTC)`);
});
