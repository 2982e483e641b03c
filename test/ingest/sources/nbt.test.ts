import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbt } from '../../../src/ingest/sources/nbt.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const FILES = MORE_FILES_2.nbt;

/** The recorded EUR row of 2026-05-20, whitespace as written. */
const EUR = '<CharCode>EUR</CharCode>\n   <Nominal>1</Nominal>\n   <Name>EURO</Name>\n   <Value>10.8429</Value>';

test('when the three recorded days are parsed, then each gives 36 codes in TJS per 1 unit, nominals up to 1000 divided out', async () => {
  const documents = await parseAll(nbt, FILES);
  assert.deepEqual(documents.flat().map((day) => [day.date, day.values.size]), [['2026-05-18', 36], ['2026-05-19', 36], ['2026-05-20', 36]]);
  const values = valuesOn(documents[2]!, '2026-05-20');
  assert.equal(values.get('EUR'), '10.8429', '<Value>10.8429</Value>, Nominal 1');
  assert.equal(values.get('UZS'), '0.000774', '0.0774 TJS per 100 UZS');
  assert.equal(values.get('IRR'), '0.0000071', '0.0071 TJS per 1000 IRR');
  assert.equal(values.get('KRW'), '0.006183', '0.6183 per 100');
  assert.equal(values.has('TJS'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded days', async () => {
  await assertCodesAreRecorded(nbt, FILES);
});

test('when a recorded day is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(FILES[2]);
  await assertRefused(nbt, edited(text, EUR, EUR.replace('10.8429', '10,8429')), /2026-05-20 currency=EUR: invalid rate "10,8429"/);
  await assertRefused(nbt, edited(text, EUR, EUR.replace('10.8429', 'N/A')), /2026-05-20 currency=EUR: invalid rate "N\/A"/);
  await assertRefused(nbt, edited(text, EUR, EUR.replace('<Nominal>1</Nominal>', '<Nominal>2</Nominal>')), /2026-05-20 currency=EUR: invalid nominal "2"/);
  await assertRefused(nbt, edited(text, EUR, EUR.replace('<Value>10.8429</Value>', '')), /2026-05-20 currency=EUR lacks its Value or Nominal/);
  await assertRefused(nbt, edited(text, EUR, EUR.replace('>EUR<', '>USD<')), /2026-05-20 currency=USD appears twice/);
  await assertRefused(nbt, edited(text, 'Date="2026-05-20"', 'Date="20.05.2026"'), /ValCurs has an invalid date "20.05.2026"/);
  await assertRefused(nbt, edited(text, 'Date="2026-05-20"', ''), /ValCurs has no Date/);
  await assertRefused(nbt, edited(text, '</ValCurs>', ''), /malformed XML/);
  await assertRefused(nbt, '<?xml version="1.0" encoding="utf-8" ?><ValCurs Date="2026-05-20"></ValCurs>', /the document holds no rates/);
});

test('when URLs are asked for, then the latest is today\'s export and a range is one request per day', () => {
  const feed = 'https://www.nbt.tj/en/kurs/export_xml.php';
  assert.deepEqual(nbt.urls({ from: '2026-05-18', to: '2026-05-19' }), [`${feed}?date=2026-05-18&export=xmlout`, `${feed}?date=2026-05-19&export=xmlout`]);
  const day = /date=([\d-]+)&/.exec(nbt.urls()[0]!)?.[1];
  assert.ok(Math.abs(Date.parse(day!) - Date.parse(new Date().toISOString().slice(0, 10))) <= 86_400_000, `${day} is today (UTC)`);
});
