import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { sbi } from '../../../src/ingest/sources/sbi.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { group9, group7 } = MORE_FILES_2.sbi;

test('when the two recorded groups are parsed, then they combine into four days of ISK per 1 unit from the mid-rate series', async () => {
  const [nine, seven] = await parseAll(sbi, [group9, group7]);
  assert.deepEqual(nine!.map((day) => [day.date, day.values.size]), [['2026-03-24', 10], ['2026-03-25', 10], ['2026-03-26', 10], ['2026-03-27', 10]]);
  assert.deepEqual(seven!.map((day) => [day.date, day.values.size]), [['2026-03-24', 22], ['2026-03-25', 22], ['2026-03-26', 22], ['2026-03-27', 22]]);
  const days = combineDocuments([nine!, seven!], 'sbi');
  const first = valuesOn(days, '2026-03-24');
  assert.equal(first.size, 32);
  assert.equal(first.get('EUR'), '144', '"Evra, skráð miðgengi." 144.000000');
  assert.equal(first.get('USD'), '124.44', '"Bandaríkjadalur" 124.440000');
  assert.equal(first.get('JPY'), '0.783', '"Japanskt jen" 0.783000 per 1 yen');
  assert.equal(first.get('XDR'), '169.6', '"Sérstök dráttarréttindi- SDR" 169.600000');
  assert.equal(first.get('HUF'), '0.3693', '"Ungversk forinta" 0.369300');
  assert.equal(valuesOn(days, '2026-03-27').get('USD'), '124.71');
  assert.equal(first.has('ISK'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded groups', async () => {
  await assertCodesAreRecorded(sbi, [group9, group7]);
});

test('when a buying-rate series holds entries, then they are not read', async () => {
  const text = edited(moreText(group9), 'Japanskt jen, skráð sölugengi.]]></Description><TimeSeriesData />',
    'Japanskt jen, skráð sölugengi.]]></Description><TimeSeriesData><Entry><Date>3/24/2026 12:00:00 AM</Date><Value>0.79</Value></Entry></TimeSeriesData>');
  assert.equal(valuesOn(await sbi.parse(Buffer.from(text), 'sell.xml'), '2026-03-24').get('JPY'), '0.783');
});

test('when a recorded group is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(group9);
  const yen = '<Entry><Date>3/24/2026 12:00:00 AM</Date><Value>0.783000</Value></Entry>';
  await assertRefused(sbi, edited(text, yen, yen.replace('0.783000', '0,783000')), /2026-03-24 currency=JPY: invalid rate "0,783000"/);
  await assertRefused(sbi, edited(text, yen, yen.replace('<Value>0.783000</Value>', '')), /2026-03-24 currency=JPY lacks its Value/);
  await assertRefused(sbi, edited(text, yen, yen.replace('3/24/2026', '3/25/2026')), /2026-03-25 currency=JPY appears twice/);
  await assertRefused(sbi, edited(text, yen, yen.replace('3/24/2026 12:00:00 AM', '2026-03-24')), /JPY entry #1 has an invalid date "2026-03-24"/);
  await assertRefused(sbi, edited(text, yen, yen.replace('3/24/2026', '2/30/2026')), /JPY entry #1 has an invalid date "2\/30\/2026 12:00:00 AM"/);
  await assertRefused(sbi, edited(text, '<Name><![CDATA[Japanskt jen]]></Name><Description><![CDATA[Japanskt jen, skráð miðgengi.', '<Name><![CDATA[Japanskt yen]]></Name><Description><![CDATA[Japanskt jen, skráð miðgengi.'), /unknown mid-rate series "Japanskt yen"/);
  await assertRefused(sbi, edited(text, '</Group>', ''), /malformed XML/);
  await assertRefused(sbi, '<?xml version="1.0" encoding="utf-8"?><Group ID="9"></Group>', /the document holds no rates/);
  await assertRefused(sbi, '<?xml version="1.0" encoding="utf-8"?><Other/>', /root element is not Group/);
});

test('when URLs are asked for, then each group has one, for a range or for the past week', () => {
  const feed = 'https://sedlabanki.is/xmltimeseries/Default.aspx';
  assert.deepEqual(sbi.urls({ from: '2026-03-24', to: '2026-03-28' }), [
    `${feed}?DagsFra=2026-03-24&DagsTil=2026-03-28&GroupID=9&Type=xml`,
    `${feed}?DagsFra=2026-03-24&DagsTil=2026-03-28&GroupID=7&Type=xml`,
  ]);
  const [, from, to] = /DagsFra=([\d-]+)&DagsTil=([\d-]+)/.exec(sbi.urls()[0]!) ?? [];
  assert.equal(Date.parse(to!) - Date.parse(from!), 6 * 86_400_000, 'the latest is the past seven days');
  assert.ok(Math.abs(Date.parse(to!) - Date.parse(new Date().toISOString().slice(0, 10))) <= 86_400_000, `${to} is today (UTC)`);
});
