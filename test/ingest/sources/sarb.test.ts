import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sarb } from '../../../src/ingest/sources/sarb.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { usd, gbp, eur, kes, jpy, all } = MORE_FILES_2.sarb;

test('when the recorded rand-per-unit series are parsed, then each gives its four days, ZAR per 1 unit as written', async () => {
  const [dollar, pound, euro] = await parseAll(sarb, [usd, gbp, eur]);
  for (const days of [dollar!, pound!, euro!]) {
    assert.deepEqual(days.map((day) => day.date), ['2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27'], 'oldest first');
    assert.ok(days.every((day) => day.values.size === 1 && !day.values.has('ZAR')), 'one code a document, the base implicit');
  }
  assert.equal(valuesOn(dollar!, '2026-03-27').get('USD'), '17.1302', '"Rand per US Dollar" 17.1302');
  assert.equal(valuesOn(pound!, '2026-03-27').get('GBP'), '22.8173', '"Rand per British Pound" 22.8173');
  assert.equal(valuesOn(euro!, '2026-03-27').get('EUR'), '19.7408', '"Rand per Euro" 19.7408');
  assert.equal(valuesOn(euro!, '2026-03-24').get('EUR'), '19.6299');
});

test('when the codes are listed, then they are the base and the 23 series read', async () => {
  assert.equal(all.length, 23);
  await assertCodesAreRecorded(sarb, all);
});

test('when a series quoted per 1 rand is parsed, then its figures are kept as written, units per 1 ZAR, and declared so', async () => {
  const [shilling, yen] = await parseAll(sarb, [kes, jpy]);
  assert.equal(valuesOn(shilling!, '2026-03-27').get('KES'), '7.589', '"Kenya: Schilling per Rand" "Value":7.5890');
  assert.equal(valuesOn(yen!, '2026-03-26').get('JPY'), /"Period":"2026-03-26T00:00:00","Timeseries":"Japan: Yen per Rand",[^}]*"Value":([0-9.]+)/.exec(moreText(jpy))![1]);
  // Which way each figure is written: the three "Rand per …" series in the source's terms, the twenty "… per Rand" the other way.
  assert.equal(sarb.terms, 'base-per-unit');
  const perRand = all.filter((name) => /"Timeseries":"[^"]* per Rand"/.test(moreText(name))).map((name) => /-([A-Z]{3})-/.exec(name)![1]!).sort();
  assert.equal(perRand.length, 20);
  assert.deepEqual([...sarb.termsByCode!].sort(), perRand.map((code) => [code, 'units-per-base']));
  for (const code of ['USD', 'GBP', 'EUR']) assert.equal(sarb.termsByCode!.has(code), false, `${code}: rand per unit`);
});

test('when a series is not one the bank publishes under that name, then it is refused rather than guessed', async () => {
  await assertRefused(sarb, moreText(kes).replaceAll('Kenya: Schilling per Rand', 'Kenya: Shilling per Rand'), /2026-03-27: series "Kenya: Shilling per Rand" is not one of the 23 series read/);
});

test('when a value is null, then that day has no value and the others stand', async () => {
  const days = await sarb.parse(Buffer.from(edited(moreText(usd), '"Value":17.0435', '"Value":null')), 'null.json');
  assert.deepEqual(days.map((day) => day.date), ['2026-03-24', '2026-03-25', '2026-03-27']);
});

test('when the recorded series is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(usd);
  await assertRefused(sarb, edited(text, '"Value":17.0435', '"Value":"17.0435"'), /2026-03-26 currency=USD "Value": expected a number, got the string/);
  await assertRefused(sarb, edited(text, '"Value":17.0435', '"Value":-17.0435'), /2026-03-26 currency=USD: invalid rate "-17.0435"/);
  await assertRefused(sarb, edited(text, '"Value":17.0435', '"Value":1.70435E1'), /2026-03-26 currency=USD: invalid rate "1.70435E1"/);
  await assertRefused(sarb, edited(text, ',"Value":17.0435', ''), /2026-03-26 currency=USD "Value": expected a number, got nothing/);
  await assertRefused(sarb, edited(text, '"Period":"2026-03-26T00:00:00"', '"Period":"2026-03-27T00:00:00"'), /2026-03-27 currency=USD appears twice/);
  await assertRefused(sarb, edited(text, '"Period":"2026-03-26T00:00:00"', '"Period":"2026-02-30T00:00:00"'), /observation #2 has an invalid date "2026-02-30"/);
  await assertRefused(sarb, edited(text, '"Period":"2026-03-26T00:00:00"', '"Period":"26.03.2026"'), /observation #2: invalid Period "26.03.2026"/);
  await assertRefused(sarb, edited(text, '"Period":"2026-03-26T00:00:00","Timeseries":"Rand per US Dollar"', '"Period":"2026-03-26T00:00:00","Timeseries":"Rand per Euro"'), /2026-03-26: series "Rand per Euro" in a document of "Rand per US Dollar"/);
  await assertRefused(sarb, '[]', /the document holds no rates/);
  await assertRefused(sarb, '{}', /the document: expected an array, got an object/);
});

test('when URLs are asked for, then each series has one, for a range or for the past week: the recorded URLs', () => {
  const api = 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations';
  const recorded = all.map((name) => `${api}/${/sarb-(EXC[A-Z0-9]+)-/.exec(name)![1]}/2026-03-23T00:00:00/2026-03-27T00:00:00`);
  assert.deepEqual([...sarb.urls({ from: '2026-03-23', to: '2026-03-27' })].sort(), recorded.sort());
  assert.deepEqual(sarb.urls({ from: '2026-03-23', to: '2026-03-27' }).slice(0, 3), [
    `${api}/EXCX135D/2026-03-23T00:00:00/2026-03-27T00:00:00`,
    `${api}/EXCZ001D/2026-03-23T00:00:00/2026-03-27T00:00:00`,
    `${api}/EXCZ002D/2026-03-23T00:00:00/2026-03-27T00:00:00`,
  ]);
  const latest = sarb.urls();
  assert.equal(latest.length, 23);
  const [, from, to] = /\/(\d{4}-\d{2}-\d{2})T00:00:00\/(\d{4}-\d{2}-\d{2})T00:00:00$/.exec(latest[0]!) ?? [];
  assert.equal(Date.parse(to!) - Date.parse(from!), 6 * 86_400_000, 'seven days, today among them');
  assert.ok(Math.abs(Date.parse(to!) - Date.parse(new Date().toISOString().slice(0, 10))) <= 86_400_000, `${to} is today (UTC)`);
});
