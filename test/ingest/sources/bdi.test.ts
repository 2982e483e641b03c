import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bdi } from '../../../src/ingest/sources/bdi.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [FEB09, FEB10, FEB11] = MORE_PROVIDER_FILES.bdi;

test('when the three recorded days are parsed, then each gives 150 currencies per 1 EUR as written, N.A. and repeats left out', async () => {
  const all = [];
  for (const [file, date] of [[FEB09, '2026-02-09'], [FEB10, '2026-02-10'], [FEB11, '2026-02-11']] as const) {
    const days = await bdi.parse(moreProviderBytes('bdi', file), file);
    all.push(...days);
    assert.deepEqual(days.map((day) => day.date), [date], file);
    assert.equal(days[0]!.values.size, 150, `${file}: 150 codes with a value`);
    for (const code of ['BYN', 'IRR', 'KPW', 'RUB']) assert.equal(days[0]!.values.has(code), false, `${code} is "N.A.": no value`);
    assert.equal(days[0]!.values.has('EUR'), false, 'the base is implicit');
  }
  assertCodesOf(bdi, all);
  const feb10 = valuesOn(await bdi.parse(moreProviderBytes('bdi', FEB10), FEB10), '2026-02-10');
  assert.equal(feb10.get('USD'), '1.1894', '1.1894 USD for 1 euro');
  assert.equal(feb10.get('JPY'), '184.51', 'written 184.5100');
  assert.equal(feb10.get('GBP'), '0.8695', 'written 0.86950');
  assert.equal(feb10.get('BBD'), '2.3788', 'written 2.378800');
  assert.equal(feb10.get('XDR'), '0.862332', 'the SDR row');
  assert.equal(feb10.get('XOF'), '655.957', 'one value for the eight XOF rows');
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('bdi', FEB10);
  const usd = 'UNITED STATES,U.S. Dollar,USD,001,1.1894,Foreign currency amount for 1 Euro.,2026-02-10';
  await assertRefused(bdi, edited(text, usd, usd.replace('1.1894', '1,1894')), /line \d+: 8 fields, the header has 7/);
  await assertRefused(bdi, edited(text, usd, usd.replace('1.1894', '-1.1894')), /2026-02-10 currency=USD: invalid rate "-1.1894"/);
  await assertRefused(bdi, edited(text, usd, usd.replace('1.1894', '')), /2026-02-10 currency=USD: invalid rate ""/);
  await assertRefused(bdi, edited(text, usd, usd.replace('2026-02-10', '10/02/2026')), /line \d+ has an invalid date "10\/02\/2026"/);
  await assertRefused(bdi, edited(text, usd, usd.replace(',USD,', ',GBP,')), /2026-02-10 currency=GBP appears twice with different rates, "0.86950" and "1.1894"/);
  await assertRefused(bdi, edited(text, usd, usd.replace(',USD,', ',EUR,')), /2026-02-10 currency=EUR: the source's own base currency is quoted/);
  await assertRefused(
    bdi,
    edited(text, usd, usd.replace('Foreign currency amount for 1 Euro.', 'Euro amount for 1 foreign currency unit.')),
    /2026-02-10 currency=USD: rate convention "Euro amount for 1 foreign currency unit."/,
  );
  await assertRefused(bdi, edited(text, 'Country,Currency,ISO Code,UIC Code,Rate,', 'Country,Currency,ISO,UIC Code,Rate,'), /line 1: no column "ISO Code"/);
  await assertRefused(bdi, '', /the document holds no rates/);
  await assertRefused(bdi, text.split('\n')[0]!, /the document holds no rates/);
});

test('when URLs are asked for, then a range is one dailyRates request per weekday and the latest is today', () => {
  const daily = 'https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?currencyIsoCode=EUR&lang=en&referenceDate=';
  assert.deepEqual(bdi.urls({ from: '2026-02-06', to: '2026-02-10' }), [`${daily}2026-02-06`, `${daily}2026-02-09`, `${daily}2026-02-10`]);
  assert.deepEqual(bdi.urls(), [`${daily}${new Date().toISOString().slice(0, 10)}`]);
});
