import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbu } from '../../../src/ingest/sources/nbu.js';
import { parseDecimal } from '../../helpers/oracle.js';
import { assertRefused, edited, PROVIDER_FILES, providerBytes, providerText, valuesOn } from '../../helpers/provider-fixtures.js';

test('when the recorded exchange_site file is parsed, then it gives 16 days (weekends included) of UAH per 1 unit, metals and XDR among them', async () => {
  const days = await nbu.parse(providerBytes(PROVIDER_FILES.nbu), PROVIDER_FILES.nbu);
  assert.equal(days.length, 16);
  assert.deepEqual([days[0]!.date, days.at(-1)!.date], ['2026-03-01', '2026-03-16']);
  assert.ok(days.every((day) => day.values.size === 45));
  const sunday = valuesOn(days, '2026-03-01');
  assert.equal(sunday.get('USD'), '43.2081');
  assert.equal(sunday.get('XAU'), '223871.54');
  assert.equal(sunday.get('XAG'), '3759.91');
  assert.equal(sunday.get('XPD'), '76843.88');
  assert.equal(sunday.get('XPT'), '98120.84');
  assert.equal(sunday.get('XDR'), '59.4533');
  assert.equal(sunday.get('THB'), '1.39116', '13.9116 UAH per 10 THB');
  assert.equal(sunday.get('VND'), '0.0016565', '1.6565 UAH per 1000 VND');
  const last = valuesOn(days, '2026-03-16');
  assert.equal(last.get('EUR'), '50.6661');
  assert.equal(last.get('HUF'), '0.129403', '12.9403 UAH per 100 HUF');
  assert.equal(last.get('XAU'), '225912.48');
  assert.equal(last.has('UAH'), false);
});

test("when every value is compared with the NBU's own rate_per_unit, then they are equal", async () => {
  const days = await nbu.parse(providerBytes(PROVIDER_FILES.nbu), 'nbu');
  const rows = [...providerText(PROVIDER_FILES.nbu).matchAll(/"exchangedate":"(\d\d)\.(\d\d)\.(\d{4})"[^}]*?"cc":"([A-Z]{3})"[^}]*?"rate_per_unit":([0-9.]+)/g)];
  assert.equal(rows.length, 16 * 45);
  for (const [, day, month, year, code, perUnit] of rows) {
    const ours = parseDecimal(valuesOn(days, `${year}-${month}-${day}`).get(code!) ?? 'missing');
    const theirs = parseDecimal(perUnit!);
    assert.equal(ours.num * theirs.den, theirs.num * ours.den, `${year}-${month}-${day} ${code}: ${perUnit}`);
  }
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = providerText(PROVIDER_FILES.nbu);
  const huf = '"exchangedate":"16.03.2026","r030":348,"cc":"HUF"';
  const hufRate = '"rate":12.9403,"units":100,';
  const hufRow = text.slice(text.indexOf(huf), text.indexOf('}', text.indexOf(huf)));
  const withRow = (row: string) => edited(text, hufRow, row);
  await assertRefused(nbu, withRow(hufRow.replace(hufRate, '"rate":12.9403,"units":7,')), /2026-03-16 currency=HUF: invalid nominal "7"/);
  await assertRefused(nbu, withRow(hufRow.replace(hufRate, '"rate":"12.9403","units":100,')), /2026-03-16 currency=HUF "rate": expected a number/);
  await assertRefused(nbu, withRow(hufRow.replace(hufRate, '"rate":1.29403e1,"units":100,')), /2026-03-16 currency=HUF: invalid rate "1.29403e1"/);
  await assertRefused(nbu, withRow(hufRow.replace(hufRate, '"units":100,')), /2026-03-16 currency=HUF "rate": expected a number, got nothing/);
  await assertRefused(nbu, withRow(hufRow.replace(hufRate, '"rate":12.9403,')), /2026-03-16 currency=HUF "units": expected a number, got nothing/);
  await assertRefused(nbu, withRow(hufRow.replace('"16.03.2026"', '"2026-03-16"')), /row #\d+: invalid exchangedate "2026-03-16" \(expected DD.MM.YYYY\)/);
  await assertRefused(nbu, withRow(hufRow.replace('"cc":"HUF"', '"cc":"EUR"')), /2026-03-16 currency=EUR appears twice/);
  await assertRefused(nbu, withRow(hufRow.replace('"cc":"HUF"', '"cc":"UAH"')), /2026-03-16 currency=UAH: the source's own base currency is quoted/);
  await assertRefused(nbu, text.slice(0, -3), /not valid JSON/);
});

test('when a row carries no units (the latest-rates feed), then it is per 1 unit', async () => {
  const days = await nbu.parse(Buffer.from('[{"r030":840,"txt":"Долар США","rate":41.2345,"cc":"USD","exchangedate":"27.11.2026"}]'), 'latest');
  assert.deepEqual(days, [{ date: '2026-11-27', values: new Map([['USD', '41.2345']]) }]);
});

test('when URLs are asked for, then a range is one exchange_site request and the latest the statdirectory feed', () => {
  assert.deepEqual(nbu.urls({ from: '2026-03-01', to: '2026-03-16' }), [
    'https://bank.gov.ua/NBU_Exchange/exchange_site?end=20260316&json=&order=asc&sort=exchangedate&start=20260301',
  ]);
  assert.deepEqual(nbu.urls(), ['https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?json']);
});
