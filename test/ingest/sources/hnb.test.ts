import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hnb } from '../../../src/ingest/sources/hnb.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreBytes, moreText } from '../../helpers/more-provider-fixtures-2.js';

const { eur, hrk } = MORE_FILES_2.hnb;

test('when the recorded list in euro is parsed, then it gives five days of units per 1 EUR as written, the middle rate', async () => {
  assert.equal(hnb.terms, 'units-per-base', 'quoted like the ECB, never inverted');
  const days = await hnb.parse(moreBytes(eur), eur);
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [
    ['2023-01-02', 13], ['2023-01-03', 13], ['2023-01-04', 13], ['2023-01-05', 13], ['2023-01-06', 13],
  ]);
  const values = valuesOn(days, '2023-01-02');
  assert.equal(values.get('USD'), '1.0666', '"srednji_tecaj":"1,066600" USD per 1 EUR');
  assert.equal(values.get('JPY'), '140.66', '"140,660000" JPY per 1 EUR');
  assert.equal(values.get('BAM'), '1.95583', '"1,955830"');
  assert.equal(values.get('HUF'), '400.87', '"400,870000"');
  assert.equal(values.has('EUR'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded list in euro', async () => {
  await assertCodesAreRecorded(hnb, [eur]);
});

test('when a kuna list of API v2 is given, then it is refused: its base is HRK, not this source\'s', async () => {
  await assertRefused(hnb, moreBytes(hrk), /row #1: a kuna list \(API v2, HRK per "jedinica" units\)/);
});

test('when the recorded list is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(eur);
  const usd = '"datum_primjene":"2023-01-02","drzava":"SAD","drzava_iso":"USA","kupovni_tecaj":"1,068200","prodajni_tecaj":"1,065000","sifra_valute":"840","srednji_tecaj":"1,066600","valuta":"USD"';
  await assertRefused(hnb, edited(text, usd, usd.replace('"srednji_tecaj":"1,066600"', '"srednji_tecaj":"1.066600"')), /2023-01-02 currency=USD: invalid rate "1.066600" \(HNB writes a decimal comma/);
  await assertRefused(hnb, edited(text, usd, usd.replace('"srednji_tecaj":"1,066600"', '"srednji_tecaj":"1,06,66"')), /2023-01-02 currency=USD: invalid rate "1,06,66"/);
  await assertRefused(hnb, edited(text, usd, usd.replace('"srednji_tecaj":"1,066600"', '"srednji_tecaj":"0,000000"')), /2023-01-02 currency=USD: rate must be greater than zero/);
  await assertRefused(hnb, edited(text, usd, usd.replace('"srednji_tecaj":"1,066600",', '')), /2023-01-02 currency=USD "srednji_tecaj": expected a string, got nothing/);
  await assertRefused(hnb, edited(text, usd, usd.replace('"USD"', '"JPY"')), /2023-01-02 currency=JPY appears twice/);
  await assertRefused(hnb, edited(text, usd, usd.replace('"USD"', '"EUR"')), /2023-01-02 currency=EUR: the source's own base currency is quoted/);
  await assertRefused(hnb, edited(text, usd, usd.replace('2023-01-02', '02.01.2023')), /row #\d+ has an invalid date "02.01.2023"/);
  await assertRefused(hnb, '[]', /the document holds no rates/);
  await assertRefused(hnb, '{}', /the document: expected an array/);
});

test('when URLs are asked for, then the latest is the list in euro and a range is its date filter', () => {
  assert.deepEqual(hnb.urls(), ['https://api.hnb.hr/tecajn-eur/v3']);
  assert.deepEqual(hnb.urls({ from: '2023-01-02', to: '2023-01-06' }), ['https://api.hnb.hr/tecajn-eur/v3?datum-primjene-do=2023-01-06&datum-primjene-od=2023-01-02']);
});
