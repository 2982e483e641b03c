import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cbr } from '../../../src/ingest/sources/cbr.js';
import { parseDecimal, type Rational } from '../../helpers/oracle.js';
import { assertRefused, edited, PROVIDER_FILES, providerBytes, valuesOn } from '../../helpers/provider-fixtures.js';

/** The recorded file edited as bytes: windows-1251 is one byte per character, as latin1 reads it. */
const altered = (from: string, to: string): Buffer =>
  Buffer.from(edited(providerBytes(PROVIDER_FILES.cbr).toString('latin1'), from, to), 'latin1');

test('when the recorded windows-1251 XML is parsed, then its one day gives RUB per 1 unit, the nominal divided out exactly', async () => {
  const days = await cbr.parse(providerBytes(PROVIDER_FILES.cbr), PROVIDER_FILES.cbr);
  assert.deepEqual(days.map((day) => day.date), ['2026-04-25']);
  const values = valuesOn(days, '2026-04-25');
  assert.equal(values.size, 54);
  assert.equal(values.get('EUR'), '88.2826');
  assert.equal(values.get('USD'), '75.5273');
  assert.equal(values.get('XDR'), '103.3893');
  assert.equal(values.get('DZD'), '0.570006', '57,0006 RUB per 100 DZD');
  assert.equal(values.get('KRW'), '0.0510113', '51,0113 per 1000');
  assert.equal(values.get('VND'), '0.0030075', '30,0750 per 10000');
  assert.equal(values.get('IRR'), '0.0000539256', '53,9256 per 1,000,000');
  assert.equal(values.has('RUB'), false);
});

/** "5,39256E-05" or "0,570006" exactly, as the oracle's rational. */
function cbrNumber(text: string): Rational {
  const [mantissa = '', exponent = '0'] = text.replace(',', '.').split('E');
  const value = parseDecimal(mantissa);
  const power = 10n ** BigInt(Math.abs(Number(exponent)));
  return Number(exponent) < 0 ? { num: value.num, den: value.den * power } : { num: value.num * power, den: value.den };
}

test('when every value is compared with the CBR\'s own per-unit figure (VunitRate), then they are equal', async () => {
  const values = valuesOn(await cbr.parse(providerBytes(PROVIDER_FILES.cbr), 'cbr'), '2026-04-25');
  const text = new TextDecoder('windows-1251').decode(providerBytes(PROVIDER_FILES.cbr));
  const pairs = [...text.matchAll(/<CharCode>([A-Z]{3})<\/CharCode>.*?<VunitRate>([^<]+)<\/VunitRate>/g)];
  assert.equal(pairs.length, 54);
  for (const [, code, unitRate] of pairs) {
    const ours = parseDecimal(values.get(code!) ?? 'missing');
    const theirs = cbrNumber(unitRate!);
    assert.equal(ours.num * theirs.den, theirs.num * ours.den, `${code}: ${values.get(code!)} = ${unitRate}`);
  }
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  await assertRefused(cbr, altered('<Value>88,2826</Value>', '<Value>88.2826</Value>'), /2026-04-25 currency=EUR: invalid rate "88.2826" \(the CBR writes a decimal comma\)/);
  await assertRefused(cbr, altered('<Value>88,2826</Value>', '<Value>88,28,26</Value>'), /2026-04-25 currency=EUR: invalid rate "88.28,26"/);
  await assertRefused(cbr, altered('<Value>88,2826</Value>', '<Value> 88,2826</Value>'), /2026-04-25 currency=EUR: invalid rate " 88.2826"/);
  await assertRefused(cbr, altered('<Value>88,2826</Value>', ''), /2026-04-25 currency=EUR lacks its Value or Nominal/);
  await assertRefused(cbr, altered('<CharCode>DZD</CharCode><Nominal>100</Nominal>', '<CharCode>DZD</CharCode><Nominal>300</Nominal>'), /currency=DZD: invalid nominal "300"/);
  await assertRefused(cbr, altered('<CharCode>DZD</CharCode>', '<CharCode>EUR</CharCode>'), /2026-04-25 currency=EUR appears twice/);
  await assertRefused(cbr, altered('Date="25.04.2026"', 'Date="2026-04-25"'), /ValCurs has no valid Date \(expected DD.MM.YYYY\), got "2026-04-25"/);
  await assertRefused(cbr, altered('Date="25.04.2026"', 'Date="31.04.2026"'), /ValCurs has no valid Date/);
  await assertRefused(cbr, altered('</ValCurs>', ''), /malformed XML/);
  await assertRefused(cbr, altered('encoding="windows-1251"', 'encoding="koi8-r"'), /declares encoding "koi8-r"/);
  await assertRefused(cbr, altered('encoding="windows-1251"?>', 'encoding="windows-1251"?><!DOCTYPE x [<!ENTITY a "b">]>'), /DOCTYPE/);
  await assertRefused(cbr, '<?xml version="1.0"?><ValCurs Date="25.04.2026"></ValCurs>', /the document holds no rates/);
  await assertRefused(cbr, '<?xml version="1.0"?><Other/>', /root element is not ValCurs/);
});

test('when URLs are asked for, then the latest is XML_daily and a range is one request per day', () => {
  assert.deepEqual(cbr.urls(), ['https://www.cbr.ru/scripts/XML_daily.asp']);
  assert.deepEqual(cbr.urls({ from: '2026-04-24', to: '2026-04-25' }), [
    'https://www.cbr.ru/scripts/XML_daily.asp?date_req=24/04/2026',
    'https://www.cbr.ru/scripts/XML_daily.asp?date_req=25/04/2026',
  ]);
});
