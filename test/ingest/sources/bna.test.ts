import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EmptyDocumentError } from '../../../src/ingest/sources/day-collector.js';
import { bna } from '../../../src/ingest/sources/bna.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreBytes, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { all, aed, eur, sdg } = MORE_FILES_2.bna;

test('when the recorded every-currency answer is parsed, then it gives three days of AOA per 1 unit, withdrawn codes and dollar-quoted gold left out', async () => {
  const days = await bna.parse(moreBytes(all), all);
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [['2026-05-19', 65], ['2026-05-20', 65], ['2026-05-21', 65]]);
  const values = valuesOn(days, '2026-05-19');
  assert.equal(values.get('EUR'), '1060.8582', '"taxa":1060.8582 for the euro');
  assert.equal(values.get('USD'), '913.116');
  assert.equal(values.get('JPY'), '5.73854', '"YEN JAPONES" 5.73854 per 1 yen');
  assert.equal(values.get('XDR'), '1248.17479', 'labelled XDRUSD, kwanzas per 1 SDR');
  assert.equal(values.get('ALL'), '11.18329');
  for (const code of ['EEK', 'HRK', 'STD', 'VEF', 'ZMK']) assert.equal(values.has(code), false, `${code} was withdrawn before 2026`);
  assert.equal(values.has('XAU'), false, '"OURO" 4565.82 is dollars per ounce, not kwanzas');
  assert.equal(values.has('XDRUSD'), false);
  assert.equal(values.has('AOA'), false, 'the base is implicit');
});

test('when a withdrawn code is quoted on a day before its withdrawal, then it is kept', async () => {
  const text = edited(moreText(aed), '"data":"2026-05-19","designacaoMoeda":"DINAR EMIRATES","codigoMoeda":"AED"', '"data":"2022-12-30","designacaoMoeda":"KUNA","codigoMoeda":"HRK"');
  const days = await bna.parse(Buffer.from(text), 'hrk.json');
  assert.equal(valuesOn(days, '2022-12-30').get('HRK'), '248.609');
  assert.deepEqual(days.map((day) => day.date), ['2022-12-30', '2026-05-20', '2026-05-21']);
});

test('when one currency\'s answer is parsed, then its days agree with the every-currency answer', async () => {
  const [single, whole] = await parseAll(bna, [eur, all]);
  for (const day of single!) assert.equal(day.values.get('EUR'), valuesOn(whole!, day.date).get('EUR'), day.date);
  assert.equal(valuesOn((await parseAll(bna, [aed]))[0]!, '2026-05-21').get('AED'), '248.609');
});

test('when the codes are listed, then they are the base and every code of the recorded answers', async () => {
  await assertCodesAreRecorded(bna, [all, aed, eur]);
});

test('when the recorded answer for a currency without rates (SDG) is parsed, then it holds no rates', async () => {
  await assert.rejects(bna.parse(moreBytes(sdg), sdg), EmptyDocumentError);
});

test('when a recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(all);
  const usd = '"taxa":913.116,"descricaoTipoCambio":"Taxa de Referência - MEDIO","tipoCambio":"M","data":"2026-05-19","designacaoMoeda":"DÓLAR AMERICANO","codigoMoeda":"USD"';
  await assertRefused(bna, edited(text, usd, usd.replace('913.116', '"913.116"')), /2026-05-19 currency=USD "taxa": expected a number, got the string/);
  await assertRefused(bna, edited(text, usd, usd.replace('913.116', '0')), /2026-05-19 currency=USD: rate must be greater than zero/);
  await assertRefused(bna, edited(text, usd, usd.replace('913.116', '9.13116e2')), /2026-05-19 currency=USD: invalid rate "9.13116e2"/);
  await assertRefused(bna, edited(text, usd, usd.replace('"tipoCambio":"M"', '"tipoCambio":"V"')), /2026-05-19 currency=USD: tipoCambio "V" is not the reference mid rate/);
  await assertRefused(bna, edited(text, usd, usd.replace('"taxa":913.116,', '')), /2026-05-19 currency=USD "taxa": expected a number, got nothing/);
  await assertRefused(bna, edited(text, usd, usd.replace('2026-05-19', '19/05/2026')), /row #\d+ has an invalid date "19\/05\/2026"/);
  await assertRefused(bna, edited(text, usd, usd.replace('"USD"', '"EUR"')), /2026-05-19 currency=EUR appears twice/);
  await assertRefused(bna, edited(text, '"success":true', '"success":false'), /not marked "success": true/);
  await assertRefused(bna, '{"genericResponse":[],"success":true}', /the document holds no rates/);
  await assertRefused(bna, '[]', /the document: expected an object/);
});

test('when URLs are asked for, then each currency has one for the range, the SDR asked for as XDRUSD', () => {
  const api = 'https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo';
  const urls = bna.urls({ from: '2026-05-18', to: '2026-05-21' });
  assert.equal(urls.length, bna.codes.length - 1, 'every code but the base');
  assert.ok(urls.includes(`${api}?datafim=2026-05-21&datainicio=2026-05-18&moeda=AED&tipocambio=M`));
  assert.ok(urls.includes(`${api}?datafim=2026-05-21&datainicio=2026-05-18&moeda=XDRUSD&tipocambio=M`));
  assert.ok(!urls.some((url) => url.includes('moeda=AOA') || url.includes('moeda=XDR&')));
  const [, to, from] = /datafim=([\d-]+)&datainicio=([\d-]+)/.exec(bna.urls()[0]!) ?? [];
  assert.equal(Date.parse(to!) - Date.parse(from!), 6 * 86_400_000, 'the latest is the past seven days');
  assert.ok(Math.abs(Date.parse(to!) - Date.parse(new Date().toISOString().slice(0, 10))) <= 86_400_000, `${to} is today (UTC)`);
});
