import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nbk } from '../../../src/ingest/sources/nbk.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [APR01, APR02, APR03] = MORE_PROVIDER_FILES.nbk;
const EUR = '<title>EUR</title>\n            <description>551.06</description>\n            <quant>1</quant>';
const IRR = '<title>IRR</title>\n            <description>0.4</description>\n            <quant>1000</quant>';

test('when the three recorded days are parsed, then each gives KZT per 1 unit, quant divided out', async () => {
  const all = [];
  for (const [file, date] of [[APR01, '2026-04-01'], [APR02, '2026-04-02'], [APR03, '2026-04-03']] as const) {
    const days = await nbk.parse(moreProviderBytes('nbk', file), file);
    assert.deepEqual(days.map((day) => day.date), [date], file);
    assert.equal(days[0]!.values.size, 39, `${file}: thirty-nine currencies`);
    all.push(...days);
  }
  assertCodesOf(nbk, all);
  const apr02 = valuesOn(all, '2026-04-02');
  assert.equal(apr02.get('EUR'), '551.06', '551.06 KZT per EUR');
  assert.equal(apr02.get('XDR'), '644.41');
  assert.equal(apr02.get('IRR'), '0.0004', '0.4 KZT per 1000 IRR');
  assert.equal(apr02.get('JPY'), '3', 'written 3, per 1 JPY');
  assert.equal(apr02.has('KZT'), false, 'the base is implicit');
});

test('when the recorded day is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('nbk', APR02);
  await assertRefused(nbk, edited(text, EUR, EUR.replace('551.06', '551,06')), /2026-04-02 currency=EUR: invalid rate "551,06"/);
  await assertRefused(nbk, edited(text, EUR, EUR.replace('551.06', '')), /2026-04-02 currency=EUR: invalid rate ""/);
  await assertRefused(nbk, edited(text, IRR, IRR.replace('<quant>1000</quant>', '<quant>500</quant>')), /2026-04-02 currency=IRR: invalid nominal "500"/);
  await assertRefused(nbk, edited(text, IRR, IRR.replace('<quant>1000</quant>', '')), /2026-04-02 currency=IRR lacks its description or quant/);
  await assertRefused(nbk, edited(text, IRR, IRR.replace('IRR', 'EUR')), /2026-04-02 currency=EUR appears twice/);
  await assertRefused(nbk, edited(text, '<date>02.04.2026</date>', '<date>2026-04-02</date>'), /rates has no valid date \(expected DD.MM.YYYY\), got "2026-04-02"/);
  await assertRefused(nbk, edited(text, '</rates>', ''), /malformed XML/);
  await assertRefused(nbk, '<rates><date>02.04.2026</date></rates>', /the document holds no rates/);
});

test('when URLs are asked for, then a range is one get_rates request per day', () => {
  assert.deepEqual(nbk.urls({ from: '2026-04-01', to: '2026-04-03' }), [
    'https://nationalbank.kz/rss/get_rates.cfm?fdate=01.04.2026',
    'https://nationalbank.kz/rss/get_rates.cfm?fdate=02.04.2026',
    'https://nationalbank.kz/rss/get_rates.cfm?fdate=03.04.2026',
  ]);
  assert.match(nbk.urls()[0]!, /^https:\/\/nationalbank\.kz\/rss\/get_rates\.cfm\?fdate=\d{2}\.\d{2}\.\d{4}$/);
});
