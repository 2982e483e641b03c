import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bnm } from '../../../src/ingest/sources/bnm.js';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreBytes, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { latest, months } = MORE_FILES_2.bnm;
const MONTHS = Object.values(months);

test('when the recorded latest answer is parsed, then its day gives MYR per 1 unit, the 4-decimal rate behind each written double', async () => {
  const days = await bnm.parse(moreBytes(latest), latest);
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [['2026-03-19', 27]]);
  const values = valuesOn(days, '2026-03-19');
  assert.equal(values.get('EUR'), '4.5093', '"middle_rate":4.5092999999999996, BNM\'s 4.5093');
  assert.equal(values.get('USD'), '3.93', '"middle_rate":3.9300000000000002');
  assert.equal(values.get('IDR'), '0.000231', '0.023099999999999999 per 100 IDR, i.e. 0.0231 per 100');
  assert.equal(values.get('XDR'), '5.3538', 'labelled "SDR", 5.3537999999999997');
  assert.equal(values.has('SDR'), false);
  assert.equal(values.has('MYR'), false, 'the base is implicit');
});

test('when the 27 recorded months are parsed, then they combine into 14 days that end on the latest answer\'s day, equal to it', async () => {
  const days = combineDocuments(await parseAll(bnm, MONTHS), 'bnm');
  assert.equal(days.length, 14);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2026-03-02', '2026-03-19']);
  assert.ok(days.every((day) => day.values.size === 27));
  const first = valuesOn(days, '2026-03-02');
  assert.equal(first.get('EUR'), '4.6087', '4.6086999999999998');
  assert.equal(first.get('JPY'), '0.025019', '2.5019 MYR per 100 JPY');
  const [one] = await parseAll(bnm, [latest]);
  assert.deepEqual(valuesOn(days, '2026-03-19'), one![0]!.values);
});

test('when the codes are listed, then they are the base and every code of the recorded answers', async () => {
  await assertCodesAreRecorded(bnm, [latest, ...MONTHS]);
});

test('when a middle rate is null, then that day has no value for it', async () => {
  const text = edited(moreText(months['EUR']!), '"date":"2026-03-02","buying_rate":4.6044,"selling_rate":4.6130000000000004,"middle_rate":4.6086999999999998', '"date":"2026-03-02","buying_rate":null,"selling_rate":null,"middle_rate":null');
  const days = await bnm.parse(Buffer.from(text), 'null.json');
  assert.equal(days.length, 13);
  assert.equal(days[0]!.date, '2026-03-03');
});

test('when a recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(latest);
  const eur = '"middle_rate":4.5092999999999996';
  await assertRefused(bnm, edited(text, eur, '"middle_rate":4.50931'), /2026-03-19 currency=EUR: rate "4.50931" has more than the 4 decimals BNM publishes/);
  await assertRefused(bnm, edited(text, eur, '"middle_rate":"4.5093"'), /2026-03-19 currency=EUR "middle_rate": expected a number, got the string/);
  await assertRefused(bnm, edited(text, eur, '"middle_rate":-4.5093'), /2026-03-19 currency=EUR: invalid rate "-4.5093"/);
  await assertRefused(bnm, edited(text, eur, '"middle_rate":4.5093e0'), /2026-03-19 currency=EUR: invalid rate "4.5093e0"/);
  await assertRefused(bnm, edited(text, '"currency_code":"EUR","unit":1,', '"currency_code":"EUR","unit":3,'), /2026-03-19 currency=EUR: invalid nominal "3"/);
  await assertRefused(bnm, edited(text, '"currency_code":"EUR","unit":1,', '"currency_code":"EUR",'), /currency=EUR "unit": expected a number, got nothing/);
  await assertRefused(bnm, edited(text, '"currency_code":"EUR"', '"currency_code":"USD"'), /2026-03-19 currency=USD appears twice/);
  const month = moreText(months['EUR']!);
  await assertRefused(bnm, edited(month, '"date":"2026-03-03"', '"date":"2026-03-02"'), /2026-03-02 currency=EUR appears twice/);
  await assertRefused(bnm, edited(month, '"date":"2026-03-03"', '"date":"03/03/2026"'), /currency=EUR rate #2 has an invalid date "03\/03\/2026"/);
  await assertRefused(bnm, '{"data":[]}', /the document holds no rates/);
  await assertRefused(bnm, '{"message":"not found"}', /"data": expected an object, got nothing/);
});

test('when URLs are asked for, then the latest is the 09:00 session and a range is each currency\'s months', () => {
  assert.deepEqual(bnm.urls(), ['https://api.bnm.gov.my/public/exchange-rate?session=0900']);
  const urls = bnm.urls({ from: '2025-12-15', to: '2026-01-10' });
  assert.equal(urls.length, 2 * (bnm.codes.length - 1), 'two months for each currency');
  assert.ok(urls.includes('https://api.bnm.gov.my/public/exchange-rate/EUR/year/2025/month/12?session=0900'));
  assert.ok(urls.includes('https://api.bnm.gov.my/public/exchange-rate/SDR/year/2026/month/1?session=0900'), 'XDR asked for as SDR');
});
