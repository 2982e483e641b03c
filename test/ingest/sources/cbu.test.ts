import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cbu } from '../../../src/ingest/sources/cbu.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const FILES = [MORE_FILES_2.cbu.apr1, MORE_FILES_2.cbu.apr2, MORE_FILES_2.cbu.apr3];

test('when the three recorded days are parsed, then each gives 75 codes in UZS per 1 unit, the nominal of 10 divided out', async () => {
  const documents = await parseAll(cbu, FILES);
  assert.deepEqual(documents.map((days) => days.map((day) => [day.date, day.values.size])), [
    [['2026-04-01', 75]], [['2026-04-02', 75]], [['2026-04-03', 75]],
  ]);
  const last = valuesOn(documents[2]!, '2026-04-03');
  assert.equal(last.get('EUR'), '14003.91', '"Rate":"14003.91", Nominal 1');
  assert.equal(last.get('IDR'), '0.715', '"Rate":"7.15" per "Nominal":"10"');
  assert.equal(last.get('IRR'), '0.009', '"Rate":"0.09" per 10');
  assert.equal(last.get('VND'), '0.461', '"Rate":"4.61" per 10');
  const first = valuesOn(documents[0]!, '2026-04-01');
  assert.equal(first.get('USD'), '12194.21');
  assert.equal(first.get('HUF'), '36.2', '"36.20", the trailing zero dropped');
  assert.equal(first.get('XDR'), '16557.42');
  assert.equal(first.has('UZS'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded days', async () => {
  await assertCodesAreRecorded(cbu, FILES);
});

test('when a recorded day is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(MORE_FILES_2.cbu.apr3);
  const idr = '"Nominal":"10","Rate":"7.15","Diff":"0","Date":"03.04.2026"';
  await assertRefused(cbu, edited(text, idr, idr.replace('"7.15"', '"7,15"')), /2026-04-03 currency=IDR: invalid rate "7,15"/);
  await assertRefused(cbu, edited(text, idr, idr.replace('"7.15"', '7.15')), /2026-04-03 currency=IDR "Rate": expected a string, got the number "7.15"/);
  await assertRefused(cbu, edited(text, idr, idr.replace('"7.15"', '""')), /2026-04-03 currency=IDR: invalid rate ""/);
  await assertRefused(cbu, edited(text, idr, idr.replace('"Nominal":"10"', '"Nominal":"3"')), /2026-04-03 currency=IDR: invalid nominal "3"/);
  await assertRefused(cbu, edited(text, idr, idr.replace('"Nominal":"10",', '')), /2026-04-03 currency=IDR "Nominal": expected a string, got nothing/);
  await assertRefused(cbu, edited(text, idr, idr.replace('03.04.2026', '2026-04-03')), /row #\d+: invalid Date "2026-04-03" \(expected DD.MM.YYYY\)/);
  await assertRefused(cbu, edited(text, idr, idr.replace('03.04.2026', '31.04.2026')), /invalid Date "31.04.2026"/);
  await assertRefused(cbu, edited(text, '"Ccy":"IDR"', '"Ccy":"EUR"'), /2026-04-03 currency=EUR appears twice/);
  await assertRefused(cbu, edited(text, '"Ccy":"IDR"', '"Ccy":"UZS"'), /2026-04-03 currency=UZS: the source's own base currency is quoted/);
  await assertRefused(cbu, '[]', /the document holds no rates/);
  await assertRefused(cbu, text.slice(0, 3000), /not valid JSON/);
});

test('when URLs are asked for, then the latest is the JSON feed and a range is one request per day', () => {
  assert.deepEqual(cbu.urls(), ['https://cbu.uz/en/arkhiv-kursov-valyut/json/']);
  assert.deepEqual(cbu.urls({ from: '2026-03-31', to: '2026-04-02' }), [
    'https://cbu.uz/en/arkhiv-kursov-valyut/json/all/2026-03-31/',
    'https://cbu.uz/en/arkhiv-kursov-valyut/json/all/2026-04-01/',
    'https://cbu.uz/en/arkhiv-kursov-valyut/json/all/2026-04-02/',
  ]);
});
