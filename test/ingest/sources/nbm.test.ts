import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { nbm } from '../../../src/ingest/sources/nbm.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';
import { assertCodesAreRecorded, MORE_FILES_2, moreText, parseAll } from '../../helpers/more-provider-fixtures-2.js';

const { rates, metals } = MORE_FILES_2.nbm;

test('when the recorded days are parsed, then rates and metals combine into three days of MDL per 1 unit, gold and silver per troy ounce', async () => {
  const days = combineDocuments([...(await parseAll(nbm, rates)), ...(await parseAll(nbm, metals))], 'nbm');
  assert.deepEqual(days.map((day) => [day.date, day.values.size]), [['2026-04-06', 42], ['2026-04-07', 42], ['2026-04-08', 42]]);
  const values = valuesOn(days, '2026-04-08');
  assert.equal(values.get('EUR'), '20.1703', '<Value>20.1703</Value>, Nominal 1');
  assert.equal(values.get('JPY'), '0.109277', '10.9277 MDL per 100 JPY');
  assert.equal(values.get('XDR'), '23.768', '"23.7680"');
  assert.equal(values.get('XAU'), '81253.0276528344', '"Gram gold" 2612.3455 MDL × 31.1034768 g');
  assert.equal(values.get('XAG'), '1258.90078208928', '"Gram silver" 40.4746 MDL × 31.1034768 g');
  assert.equal(values.has('MDL'), false, 'the base is implicit');
  assert.equal(valuesOn(days, '2026-04-06').get('ALL'), '0.21172', '2.1172 MDL per 10 ALL');
});

test('when the codes are listed, then they are the base and every code of the recorded documents', async () => {
  await assertCodesAreRecorded(nbm, [...rates, ...metals]);
});

test('when a recorded document is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreText(rates[2]!);
  const jpy = '<CharCode>JPY</CharCode>\n    <Nominal>100</Nominal>\n    <Name>Japanese Yen</Name>\n    <Value>10.9277</Value>';
  await assertRefused(nbm, edited(text, jpy, jpy.replace('10.9277', '10,9277')), /2026-04-08 currency=JPY: invalid rate "10,9277"/);
  await assertRefused(nbm, edited(text, jpy, jpy.replace('10.9277', '')), /2026-04-08 currency=JPY: invalid rate ""/);
  await assertRefused(nbm, edited(text, jpy, jpy.replace('<Nominal>100</Nominal>', '<Nominal>50</Nominal>')), /2026-04-08 currency=JPY: invalid nominal "50"/);
  await assertRefused(nbm, edited(text, jpy, jpy.replace('<Value>10.9277</Value>', '')), /2026-04-08 currency=JPY lacks its Value or Nominal/);
  await assertRefused(nbm, edited(text, jpy, jpy.replace('JPY', 'EUR')), /2026-04-08 currency=EUR appears twice/);
  await assertRefused(nbm, edited(text, 'Date="08.04.2026"', 'Date="2026-04-08"'), /ValCurs has no valid Date \(expected DD.MM.YYYY\), got "2026-04-08"/);
  await assertRefused(nbm, edited(text, '</ValCurs>', ''), /malformed XML/);
  const metal = moreText(metals[2]!);
  await assertRefused(nbm, edited(metal, '<Value>2612.3455</Value>', '<Value>-2612.3455</Value>'), /2026-04-08 currency=XAU: invalid rate "-2612.3455"/);
  await assertRefused(nbm, edited(metal, '<CharCode>XAU</CharCode>', '<CharCode>USD</CharCode>'), /2026-04-08 currency=USD: not a precious metal/);
  await assertRefused(nbm, '<?xml version="1.0" encoding="UTF-8"?><ValCurs Date="08.04.2026"></ValCurs>', /the document holds no rates/);
  await assertRefused(nbm, '<?xml version="1.0" encoding="UTF-8"?><Other/>', /root element is neither ValCurs nor MetalPrice/);
});

test('when URLs are asked for, then each day has its rates and its metals', () => {
  assert.deepEqual(nbm.urls(), ['https://www.bnm.md/en/official_exchange_rates?get_xml=1', 'https://www.bnm.md/en/official_metal_rates?get_xml=1']);
  assert.deepEqual(nbm.urls({ from: '2026-04-07', to: '2026-04-08' }), [
    'https://www.bnm.md/en/official_exchange_rates?date=07.04.2026&get_xml=1',
    'https://www.bnm.md/en/official_metal_rates?date=07.04.2026&get_xml=1',
    'https://www.bnm.md/en/official_exchange_rates?date=08.04.2026&get_xml=1',
    'https://www.bnm.md/en/official_metal_rates?date=08.04.2026&get_xml=1',
  ]);
});
