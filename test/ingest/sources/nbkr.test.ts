import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbkr } from '../../../src/ingest/sources/nbkr.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreBytes, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { daily, weekly, historicalUsd, historicalEur } = MORE_FILES_2.nbkr;

test('when the recorded daily and weekly files are parsed, then each gives its day of KGS per 1 unit, the decimal comma read, nominals divided out', async () => {
  const [day, week] = await parseAll(nbkr, [daily, weekly]);
  assert.deepEqual(day!.map((d) => [d.date, d.values.size]), [['2026-05-24', 5]]);
  assert.deepEqual(week!.map((d) => [d.date, d.values.size]), [['2026-05-23', 39]]);
  const values = valuesOn(day!, '2026-05-24');
  assert.equal(values.get('EUR'), '101.5076', '<Value>101,5076</Value>');
  assert.equal(values.get('USD'), '87.45', '"87,4500"');
  const weekly23 = valuesOn(week!, '2026-05-23');
  assert.equal(weekly23.get('JPY'), '0.54969', '5,4969 KGS per 10 JPY');
  assert.equal(weekly23.get('IRR'), '0.00007', '0,0007 per 10');
  assert.equal(weekly23.get('XDR'), '119.5195');
  assert.equal(weekly23.get('BYN'), '32.0154');
  assert.equal(weekly23.has('BYR'), false, 'BYR, withdrawn in 2016, is left out');
  assert.equal(weekly23.has('KGS'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded files', async () => {
  await assertCodesAreRecorded(nbkr, [daily, weekly]);
});

test('when a recorded history page is given, then it is refused: it names no currency', async () => {
  await assertRefused(nbkr, moreBytes(historicalUsd), /root element is not CurrencyRates/);
  await assertRefused(nbkr, moreBytes(historicalEur), /root element is not CurrencyRates/);
});

test('when a recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(daily);
  const eur = '<Currency ISOCode="EUR">\n<Nominal>1</Nominal>\n<Value>101,5076</Value>';
  const bytes = (s: string) => Buffer.from(s, 'latin1');
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace('101,5076', '101.5076'))), /2026-05-24 currency=EUR: invalid rate "101.5076" \(the NBKR writes a decimal comma\)/);
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace('101,5076', '101,50,76'))), /2026-05-24 currency=EUR: invalid rate "101.50,76"/);
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace('<Nominal>1</Nominal>', '<Nominal>5</Nominal>'))), /2026-05-24 currency=EUR: invalid nominal "5"/);
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace('\n<Value>101,5076</Value>', ''))), /2026-05-24 currency=EUR lacks its Value or Nominal/);
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace('"EUR"', '"USD"'))), /2026-05-24 currency=USD appears twice/);
  await assertRefused(nbkr, bytes(edited(text, eur, eur.replace(' ISOCode="EUR"', ''))), /2026-05-24 Currency #2 has no ISOCode/);
  await assertRefused(nbkr, bytes(edited(text, 'Date="24.05.2026"', 'Date="2026-05-24"')), /CurrencyRates has no valid Date \(expected DD.MM.YYYY\), got "2026-05-24"/);
  await assertRefused(nbkr, bytes(edited(text, 'encoding="windows-1251"', 'encoding="koi8-r"')), /declares encoding "koi8-r"/);
  await assertRefused(nbkr, bytes(edited(text, '</CurrencyRates>', '')), /malformed XML/);
  await assertRefused(nbkr, '<?xml version="1.0" encoding="windows-1251" ?><CurrencyRates Date="24.05.2026"></CurrencyRates>', /the document holds no rates/);
});

test('when URLs are asked for, then they are the daily and weekly files', () => {
  assert.deepEqual(nbkr.urls(), ['https://www.nbkr.kg/XML/daily.xml', 'https://www.nbkr.kg/XML/weekly.xml']);
});
