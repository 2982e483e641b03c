import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bcra } from '../../../src/ingest/sources/bcra.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { mar19, mar20 } = MORE_FILES_2.bcra;

test('when the two recorded days are parsed, then each gives ARS per 1 unit, the dong\'s 1,000 divided out, no-quote rows left out', async () => {
  const [first, second] = await parseAll(bcra, [mar19, mar20]);
  assert.deepEqual([...first!, ...second!].map((day) => [day.date, day.values.size]), [['2026-03-19', 33], ['2026-03-20', 33]]);
  const values = valuesOn(first!, '2026-03-19');
  assert.equal(values.get('EUR'), '1612.042', '"EURO" tipoCotizacion 1612.04200000, trailing zeros dropped');
  assert.equal(values.get('USD'), '1394.5');
  assert.equal(values.get('VND'), '0.053040965', '"DONG VIETNAM (C/1.000 UNIDADES)" 53.040965 per 1,000');
  assert.equal(values.get('XDR'), '1894.5677', '"DEG"');
  assert.equal(values.get('MXN'), '78.438321', 'labelled MXP, today\'s peso');
  for (const code of ['ARS', 'XAU', 'XAG']) assert.equal(values.has(code), false, `${code}: tipoCotizacion 0.0, no quote`);
  for (const label of ['CNH', 'REF', 'VEB', 'MXP']) assert.equal(values.has(label), false, `${label} is not read as a code`);
  assert.equal(valuesOn(second!, '2026-03-20').get('EUR'), '1607.418');
});

test('when the codes are listed, then they are the base and every code of the recorded days', async () => {
  await assertCodesAreRecorded(bcra, [mar19, mar20]);
});

test('when a recorded day is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(mar19);
  const eur = '"codigoMoneda":"EUR","descripcion":"EURO","tipoPase":1.15600000,"tipoCotizacion":1612.04200000';
  assert.ok(text.includes(eur), 'the recorded EUR row');
  await assertRefused(bcra, edited(text, eur, eur.replace('1612.04200000', '"1612.042"')), /2026-03-19 currency=EUR "tipoCotizacion": expected a number, got the string/);
  await assertRefused(bcra, edited(text, eur, eur.replace('1612.04200000', '-1612.042')), /2026-03-19 currency=EUR: invalid rate "-1612.042"/);
  await assertRefused(bcra, edited(text, eur, eur.replace(',"tipoCotizacion":1612.04200000', '')), /2026-03-19 currency=EUR "tipoCotizacion": expected a number, got nothing/);
  await assertRefused(bcra, edited(text, eur, eur.replace('"EURO"', '"EURO (C/3 UNIDADES)"')), /2026-03-19 currency=EUR: invalid nominal "3"/);
  await assertRefused(bcra, edited(text, eur, eur.replace('"EUR"', '"USD"')), /2026-03-19 currency=USD appears twice/);
  await assertRefused(bcra, edited(text, '"fecha":"2026-03-19"', '"fecha":"19/03/2026"'), /"fecha" has an invalid date "19\/03\/2026"/);
  await assertRefused(bcra, edited(text, '"fecha":"2026-03-19",', ''), /"fecha": expected a string, got nothing/);
  await assertRefused(bcra, '{"status":200,"results":{"fecha":"2026-03-21","detalle":[]}}', /the document holds no rates/);
  await assertRefused(bcra, '{"status":404}', /"results": expected an object, got nothing/);
});

test('when URLs are asked for, then the latest is the bare endpoint and a range is one request per day', () => {
  const api = 'https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones';
  assert.deepEqual(bcra.urls(), [api]);
  assert.deepEqual(bcra.urls({ from: '2026-03-19', to: '2026-03-20' }), [`${api}?fecha=2026-03-19`, `${api}?fecha=2026-03-20`]);
});
