import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dnb } from '../../../src/ingest/sources/dnb.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.dnb;
const JPY = 'JPY;KBH;2026M03D31;4.0749';

test('when the recorded DNVALD rows are parsed, then they give 269 days of DKK per 1 unit, the 100 divided out and ".." left out', async () => {
  const days = await dnb.parse(moreProviderBytes('dnb', FILE), FILE);
  assert.equal(days.length, 269);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2025-03-03', '2026-03-31'], 'sorted, though the rows are not');
  assertCodesOf(dnb, days);
  const last = valuesOn(days, '2026-03-31');
  assert.equal(last.get('EUR'), '7.473', '747.3000 DKK per 100 EUR');
  assert.equal(last.get('JPY'), '0.040749', '4.0749 DKK per 100 JPY');
  assert.equal(last.get('IDR'), '0.000383', '0.0383 DKK per 100 IDR');
  assert.equal(last.get('USD'), '6.4994', '649.9400 per 100');
  assert.equal(last.has('BGN'), false, 'BGN is ".." in 2026: no value');
  assert.equal(last.size, 29);
  assert.equal(valuesOn(days, '2025-12-30').get('BGN'), '3.8188', '381.8800 DKK per 100 BGN');
  assert.equal(valuesOn(days, '2025-03-03').get('EUR'), '7.4583', '745.8300 per 100');
  assert.equal(last.has('DKK'), false, 'the base is implicit');
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('dnb', FILE);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('4.0749', '4,0749')), /2026-03-31 currency=JPY: invalid rate "4,0749"/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('4.0749', '')), /2026-03-31 currency=JPY: invalid rate ""/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('2026M03D31', '2026M02D30')), /line \d+ has an invalid date "2026M02D30"/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('2026M03D31', '2026-03-31')), /line \d+ has an invalid date "2026-03-31"/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('JPY;', 'USD;')), /2026-03-31 currency=USD appears twice/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace('KBH', 'KBK')), /2026-03-31 currency=JPY: rate type "KBK", expected "KBH"/);
  await assertRefused(dnb, edited(text, JPY, JPY.replace(';4.0749', '')), /line \d+: 3 fields, expected 4/);
  await assertRefused(dnb, edited(text, 'VALUTA;KURTYP;TID;INDHOLD', 'VALUTA;TID;INDHOLD'), /line 1: header "VALUTA;TID;INDHOLD"/);
  await assertRefused(dnb, 'VALUTA;KURTYP;TID;INDHOLD\r\nBGN;KBH;2026M03D31;..\r\n', /the document holds no rates/);
});

test('when URLs are asked for, then DNVALD is asked for the thirty currencies over the range, in the statbank\'s day form', () => {
  const [url] = dnb.urls({ from: '2025-03-03', to: '2026-03-31' });
  assert.equal(
    url,
    'https://api.statbank.dk/v1/data/DNVALD/BULK?lang=en&valuePresentation=Code&VALUTA=EUR,USD,GBP,SEK,NOK,CHF,CAD,JPY,AUD,NZD,PLN,CZK,HUF,HKD,' +
      'SGD,ZAR,BGN,RON,TRY,KRW,THB,MYR,PHP,IDR,CNY,BRL,MXN,INR,ILS,ISK&KURTYP=KBH&Tid=%3E%3D2025M03D03%3C%3D2026M03D31',
  );
  assert.match(dnb.urls()[0]!, /&Tid=%3E%3D\d{4}M\d{2}D\d{2}%3C%3D\d{4}M\d{2}D\d{2}$/);
});
