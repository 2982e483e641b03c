import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imf } from '../../../src/ingest/sources/imf.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const [SDRCV, REP] = MORE_PROVIDER_FILES.imf;
const OMAN = 'Omani rial\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\t1.9174300000';

test('when the recorded SDR report is parsed, then it gives 22 days of XDR per 1 unit as written, NA left out', async () => {
  const days = await imf.parse(moreProviderBytes('imf', SDRCV), SDRCV);
  assert.equal(days.length, 22, 'two half-month blocks of eleven days');
  assert.deepEqual([days[0]!.date, days[10]!.date, days[11]!.date, days.at(-1)!.date], ['2026-03-02', '2026-03-16', '2026-03-17', '2026-03-31']);
  assertCodesOf(imf, days);
  const last = valuesOn(days, '2026-03-31');
  assert.equal(last.get('USD'), '0.737251', 'written 0.7372510000 SDR per USD');
  assert.equal(last.get('EUR'), '0.847691', 'written 0.8476910000');
  assert.equal(last.get('KRW'), '0.000487149', 'written 0.0004871490');
  assert.equal(last.get('OMR'), '1.91743', 'the one day of March 17–31 with an Omani rial');
  assert.equal(valuesOn(days, '2026-03-30').has('OMR'), false, 'NA is no value');
  assert.equal(valuesOn(days, '2026-03-30').has('INR'), false, 'NA is no value');
  assert.equal(valuesOn(days, '2026-03-02').size, 35, 'thirty-six currencies, the Korean won NA');
  assert.equal(last.has('XDR'), false, 'the base is implicit');
});

test('when the report is altered to be malformed, or the representative-rate report is given, then the whole file is refused', async () => {
  const text = moreProviderText('imf', SDRCV);
  await assertRefused(imf, edited(text, OMAN, OMAN.replace('1.9174300000', '1.91743e0')), /2026-03-31 currency=OMR: invalid rate "1.91743e0"/);
  await assertRefused(imf, edited(text, OMAN, OMAN.replace('1.9174300000', '1,91743')), /2026-03-31 currency=OMR: invalid rate "1,91743"/);
  await assertRefused(imf, edited(text, OMAN, OMAN.replace('\t1.9174300000', '')), /line \d+: currency=OMR has 10 values for 11 days/);
  await assertRefused(imf, edited(text, OMAN, OMAN.replace('Omani rial', 'Omani riyal')), /line \d+: unknown currency "Omani riyal"/);
  await assertRefused(imf, edited(text, OMAN, OMAN.replace('Omani rial', 'Qatari riyal')), /2026-03-31 currency=QAR appears twice/);
  await assertRefused(imf, edited(text, 'March 31, 2026', 'March 32, 2026'), /line \d+ has an invalid date "March 32, 2026"/);
  await assertRefused(imf, edited(text, 'March 31, 2026', '2026-03-31'), /line \d+ has an invalid date "2026-03-31"/);
  await assertRefused(imf, edited(text, 'March 31, 2026', 'Mar 31, 2026'), /line \d+ has an invalid date "Mar 31, 2026"/);
  await assertRefused(imf, moreProviderBytes('imf', REP), /line 1: title "Representative Exchange Rates for Select…", expected "SDRs per Currency unit for …"/);
  await assertRefused(imf, 'SDRs per Currency unit for March 2026\r\n', /the document holds no rates/);
  await assertRefused(imf, '', /line 1: title ""/);
});

test('when URLs are asked for, then a range is the SDR report of each month it spans', () => {
  assert.deepEqual(imf.urls({ from: '2026-02-20', to: '2026-03-05' }), [
    'https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=2026-02-28&reportType=SDRCV&tsvflag=Y',
    'https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=2026-03-31&reportType=SDRCV&tsvflag=Y',
  ]);
  assert.equal(imf.urls({ from: '2025-12-01', to: '2026-01-10' }).length, 2);
  assert.match(imf.urls()[0]!, /\?SelectDate=\d{4}-\d{2}-\d{2}&reportType=SDRCV&tsvflag=Y$/);
});
