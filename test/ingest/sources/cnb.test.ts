import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cnb } from '../../../src/ingest/sources/cnb.js';
import { assertRefused, edited, PROVIDER_FILES, providerBytes, providerText, valuesOn } from '../../helpers/provider-fixtures.js';

test('when the recorded year file is parsed, then it gives 65 business days of CZK per 1 unit, the amount divided out exactly', async () => {
  const days = await cnb.parse(providerBytes(PROVIDER_FILES.cnb), PROVIDER_FILES.cnb);
  assert.equal(days.length, 65);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2026-01-02', '2026-04-02']);
  assert.ok(days.every((day) => day.values.size === 30), 'thirty currencies every day');
  const first = valuesOn(days, '2026-01-02');
  assert.equal(first.get('EUR'), '24.17', 'written 24.170');
  assert.equal(first.get('HUF'), '0.06304', '6.304 CZK per 100 HUF');
  assert.equal(first.get('IDR'), '0.001233', '1.233 CZK per 1000 IDR');
  assert.equal(first.get('XDR'), '28.227');
  assert.equal(valuesOn(days, '2026-03-02').get('IDR'), '0.00123', '1.230 per 1000');
  const last = valuesOn(days, '2026-04-02');
  assert.equal(last.get('EUR'), '24.54');
  assert.equal(last.get('JPY'), '0.13338', '13.338 CZK per 100 JPY');
  assert.equal(last.has('CZK'), false, 'the base is implicit');
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = providerText(PROVIDER_FILES.cnb);
  const huf = '"currencyCode":"HUF","amount":100,"validFor":"2026-01-02","rate":6.304';
  await assertRefused(cnb, edited(text, huf, huf.replace('"amount":100', '"amount":3')), /2026-01-02 currency=HUF: invalid nominal "3"/);
  await assertRefused(cnb, edited(text, huf, huf.replace('"amount":100', '"amount":100.0')), /2026-01-02 currency=HUF: invalid nominal "100.0"/);
  await assertRefused(cnb, edited(text, huf, huf.replace('"amount":100', '"amount":"100"')), /2026-01-02 currency=HUF "amount": expected a number/);
  await assertRefused(cnb, edited(text, huf, huf.replace('6.304', '6,304')), /not valid JSON/);
  await assertRefused(cnb, edited(text, huf, huf.replace('6.304', '1E2')), /2026-01-02 currency=HUF: invalid rate "1E2"/);
  await assertRefused(cnb, edited(text, huf, huf.replace('"validFor":"2026-01-02"', '"validFor":"02.01.2026"')), /rate #\d+ has an invalid date "02.01.2026"/);
  await assertRefused(cnb, edited(text, huf, huf.replace('"HUF"', '"EUR"')), /2026-01-02 currency=EUR appears twice/);
  await assertRefused(cnb, edited(text, huf, huf.replace('"HUF"', '"CZK"')), /2026-01-02 currency=CZK: the source's own base currency is quoted/);
  await assertRefused(cnb, '{"rates":[]}', /the document holds no rates/);
  await assertRefused(cnb, '[]', /the document: expected an object, got an array/);
});

test('when URLs are asked for, then the latest is the daily feed and a range is fetched by the years it spans', () => {
  assert.deepEqual(cnb.urls(), ['https://api.cnb.cz/cnbapi/exrates/daily?lang=EN']);
  assert.deepEqual(cnb.urls({ from: '2025-12-01', to: '2026-04-02' }), [
    'https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2025',
    'https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026',
  ]);
});
