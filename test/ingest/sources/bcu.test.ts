import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { bcu } from '../../../src/ingest/sources/bcu.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const FILES = Object.values(MORE_FILES_2.bcu);

test('when the 27 recorded answers are parsed, then they combine into three days of UYU per 1 unit, USD and EUR under their ISO codes', async () => {
  const documents = await parseAll(bcu, FILES);
  assert.equal(documents.length, 27);
  assert.ok(documents.every((days) => days.map((day) => day.date).join() === '2026-03-27,2026-03-30,2026-03-31' && days.every((day) => day.values.size === 1)));
  const days = combineDocuments(documents, 'bcu');
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [['2026-03-27', 27], ['2026-03-30', 27], ['2026-03-31', 27]]);
  const first = valuesOn(days, '2026-03-27');
  assert.equal(first.get('USD'), '40.56', '"DLS. USA BILLETE" (CodigoISO "DLS.") TCC 40.560000');
  assert.equal(first.get('EUR'), '46.696728', 'CodigoISO "EURO" TCC 46.696728');
  assert.equal(first.get('JPY'), '0.25312', 'TCC 0.253120 per 1 yen');
  assert.equal(valuesOn(days, '2026-03-31').get('GBP'), '53.550992');
  assert.equal(first.has('UYU'), false, 'the base is implicit');
});

test('when the codes are listed, then they are the base and every code of the recorded answers', async () => {
  await assertCodesAreRecorded(bcu, FILES);
});

test('when a recorded answer is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(MORE_FILES_2.bcu['EUR']!);
  const rate = '<TCC>46.696728</TCC>\n\t\t\t\t\t\t<TCV>46.696728</TCV>';
  await assertRefused(bcu, edited(text, rate, rate.replace('<TCV>46.696728', '<TCV>46.9')), /2026-03-27 currency=EUR: buying "46.696728" and selling "46.9" differ/);
  await assertRefused(bcu, edited(text, rate, rate.replaceAll('46.696728', '46,696728')), /2026-03-27 currency=EUR: invalid rate "46,696728"/);
  await assertRefused(bcu, edited(text, rate, '<TCC>46.696728</TCC>'), /2026-03-27 currency=EUR lacks its TCC or TCV/);
  await assertRefused(bcu, edited(text, '<Fecha>2026-03-30</Fecha>', '<Fecha>2026-03-27</Fecha>'), /2026-03-27 currency=EUR appears twice/);
  await assertRefused(bcu, edited(text, '<Fecha>2026-03-30</Fecha>', '<Fecha>30/03/2026</Fecha>'), /row #2 has an invalid date "30\/03\/2026"/);
  await assertRefused(bcu, edited(text, '<status>1</status>', '<status>0</status>'), /the service answered status "0"/);
  await assertRefused(bcu, edited(text, '</SOAP-ENV:Envelope>', ''), /malformed XML/);
  await assertRefused(bcu, '<?xml version="1.0"?><Envelope><Body/></Envelope>', /not a wsbcucotizaciones answer/);
  const none = text.replace(/<datoscotizaciones>[\s\S]*<\/datoscotizaciones>/, '<datoscotizaciones/>');
  await assertRefused(bcu, none, /the document holds no rates/);
});

test('when URLs are asked for, then it is the SOAP endpoint', () => {
  assert.deepEqual(bcu.urls(), ['https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones']);
  // One Execute per currency read, each labelled with its code: every code but the base asked for.
  assert.deepEqual(bcu.requests!().map(({ label }) => label).sort(), bcu.codes.filter((code) => code !== 'UYU'));
});
