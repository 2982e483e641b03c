import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mnb } from '../../../src/ingest/sources/mnb.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FILE] = MORE_PROVIDER_FILES.mnb;
const EUR = '&lt;Day date="2025-03-28"&gt;&lt;Rate unit="1" curr="AUD"&gt;235,26&lt;/Rate&gt;';
const JPY = '&lt;Rate unit="100" curr="JPY"&gt;248,17&lt;/Rate&gt;';

test('when the recorded SOAP answer is parsed, then it gives five days of HUF per 1 unit, the decimal comma read and the unit divided out', async () => {
  const days = await mnb.parse(moreProviderBytes('mnb', FILE), FILE);
  assert.deepEqual(days.map((day) => day.date), ['2025-03-24', '2025-03-25', '2025-03-26', '2025-03-27', '2025-03-28'], 'sorted, the answer is newest first');
  assert.ok(days.every((day) => day.values.size === 32), 'thirty-two currencies every day');
  assertCodesOf(mnb, days);
  const last = valuesOn(days, '2025-03-28');
  assert.equal(last.get('EUR'), '402.61', '402,61 HUF per EUR');
  assert.equal(last.get('GBP'), '484', 'written 484,00');
  assert.equal(last.get('JPY'), '2.4817', '248,17 HUF per 100 JPY');
  assert.equal(last.get('IDR'), '0.0226', '2,26 HUF per 100 IDR');
  assert.equal(last.has('HUF'), false, 'the base is implicit');
});

test('when the same result comes as the service\'s GET string, then it reads alike', async () => {
  const text = moreProviderText('mnb', FILE);
  const inner = text.slice(text.indexOf('<GetExchangeRatesResult>') + 24, text.indexOf('</GetExchangeRatesResult>'));
  const get = `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="http://www.mnb.hu/webservices/">${inner}</string>`;
  assert.deepEqual(await mnb.parse(Buffer.from(get), FILE), await mnb.parse(moreProviderBytes('mnb', FILE), FILE));
});

test('when the recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('mnb', FILE);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('248,17', '248.17')), /2025-03-28 currency=JPY: invalid rate "248.17" \(the MNB writes a decimal comma\)/);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('248,17', '248,1,7')), /2025-03-28 currency=JPY: invalid rate "248.1,7"/);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('unit="100"', 'unit="12"')), /2025-03-28 currency=JPY: invalid nominal "12"/);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('unit="100" ', '')), /2025-03-28 currency=JPY lacks its rate or unit/);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('"JPY"', '"EUR"').replace('unit="100"', 'unit="1"')), /2025-03-28 currency=EUR appears twice/);
  await assertRefused(mnb, edited(text, EUR, EUR.replace('2025-03-28', '2025.03.28')), /Day #1 has an invalid date "2025.03.28"/);
  await assertRefused(mnb, edited(text, JPY, JPY.replace('&lt;/Rate&gt;', '')), /\(result\): malformed XML/);
  await assertRefused(mnb, edited(text, 'GetExchangeRatesResult>&lt;', 'GetExchangeRatesReply>&lt;'), /malformed XML|no GetExchangeRatesResult/);
  await assertRefused(mnb, '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>', /no GetExchangeRatesResult/);
  await assertRefused(mnb, '<string>&lt;MNBExchangeRates /&gt;</string>', /the document holds no rates/);
});

test('when URLs are asked for, then it is the SOAP service, which every request is POSTed to', () => {
  assert.deepEqual(mnb.urls(), ['https://www.mnb.hu/arfolyamok.asmx']);
  assert.deepEqual(mnb.urls({ from: '2025-03-24', to: '2025-03-28' }), mnb.urls());
  const [range] = mnb.requests!({ from: '2025-03-24', to: '2025-03-28' });
  assert.deepEqual(range?.headers, { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates"' });
  assert.match(range?.body ?? '', /<currencyNames>AUD,BRL,CAD,CHF,CNY,CZK,DKK,EUR,GBP,HKD,IDR,ILS,INR,ISK,JPY,KRW,MXN,MYR,NOK,NZD,PHP,PLN,RON,RSD,RUB,SEK,SGD,THB,TRY,UAH,USD,ZAR<\/currencyNames>/);
});
