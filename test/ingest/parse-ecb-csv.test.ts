import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseEcbCsv } from '../../src/ingest/parse-ecb-csv.js';
import { IngestFormatError, type ParsedDay } from '../../src/ingest/parsed-day.js';
import { canonicalRate, isValidIsoDate } from '../../src/ingest/rate-value.js';
import { ECB_FIXTURES, historyCsvText } from '../helpers/ecb-history-csv.js';

const FIXTURES = path.resolve(process.cwd(), 'test/fixtures');

const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const ecb = (name: string): string => readFileSync(path.join(ECB_FIXTURES, name), 'utf8');
const day = (date: string, rates: Record<string, string>): ParsedDay => ({ date, rates: new Map(Object.entries(rates)) });

function assertFormatError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof IngestFormatError, `expected IngestFormatError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

const HIST_DAYS = [
  day('2026-04-13', { USD: '1.1684', JPY: '186.75', GBP: '0.87058', HUF: '366.9', CHF: '0.9242' }),
  day('2026-04-10', { USD: '1.1711', JPY: '186.43', GBP: '0.87105', HUF: '377.2', CHF: '0.9241' }),
  day('2025-12-31', { USD: '1.175', JPY: '184.09', BGN: '1.9558', GBP: '0.8726', HUF: '385.15', CHF: '0.9314' }),
  day('2022-08-31', { USD: '1', JPY: '138.72', BGN: '1.9558', GBP: '0.86035', HUF: '402.8', CHF: '0.9796' }),
];

describe('canonicalRate and isValidIsoDate', () => {
  test('when rates carry padding zeros, then the canonical form drops them', () => {
    assert.equal(canonicalRate('1.1900', 'w'), '1.19');
    assert.equal(canonicalRate('366.90', 'w'), '366.9');
    assert.equal(canonicalRate('1.0000', 'w'), '1');
    assert.equal(canonicalRate('0.8706', 'w'), '0.8706');
    assert.equal(canonicalRate('007.50', 'w'), '7.5');
    assert.equal(canonicalRate('1912400', 'w'), '1912400');
  });

  test('when a rate is not a plain positive decimal, then the error names where and the value', () => {
    for (const bad of ['0', '0.000', '', '-1.2', '+1', '1e5', '.5', '5.', '1..2', '1.2.3', '1 2', 'N/A', '١٢']) {
      assert.throws(() => canonicalRate(bad, 'file line 7, USD'), (err: unknown) =>
        err instanceof IngestFormatError && err.message.startsWith('file line 7, USD: ') &&
        err.message.includes(JSON.stringify(bad)));
    }
  });

  test('when dates are checked, then only real Gregorian YYYY-MM-DD days pass', () => {
    for (const good of ['2024-02-29', '2000-02-29', '1999-01-04', '2026-12-31']) assert.ok(isValidIsoDate(good), good);
    for (const bad of ['2025-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', '26-01-01', '2026-01-01T00', '2026/01/01', '']) {
      assert.ok(!isValidIsoDate(bad), bad);
    }
  });
});

describe('parseEcbCsv on the fixtures', () => {
  test('when hist.csv is parsed, then N/A values are left out and the trailing comma is no currency', () => {
    assert.deepEqual(parseEcbCsv(fixture('hist.csv'), 'hist.csv'), HIST_DAYS);
  });

  test('when daily.csv is parsed, then it gives 2026-04-13 with canonical rates equal to the history row', () => {
    assert.deepEqual(parseEcbCsv(fixture('daily.csv'), 'daily.csv'), [HIST_DAYS[0]]);
  });

  test('when hist.csv has a BOM, CRLF line ends and no final newline, then it parses the same', () => {
    const text = `\uFEFF${fixture('hist.csv').replace(/\n/g, '\r\n').trimEnd()}`;
    assert.deepEqual(parseEcbCsv(text, 'crlf.csv'), HIST_DAYS);
  });

  test('when short-row.csv is parsed, then the row with fewer fields than its header is rejected by line', () => {
    assertFormatError(() => parseEcbCsv(fixture('short-row.csv'), 'short-row.csv'),
      /^short-row\.csv line 3: the row has 3 fields, fewer than the header's 4/);
  });

  test('when duplicate-day.csv is parsed, then the second occurrence is rejected naming both lines', () => {
    assertFormatError(() => parseEcbCsv(fixture('duplicate-day.csv'), 'duplicate-day.csv'),
      /^duplicate-day\.csv line 4: date 2026-04-13 already appeared on line 2/);
  });
});

describe('parseEcbCsv rejects malformed input', () => {
  const H = 'Date,USD,JPY,\n';
  const cases: Array<[string, string, RegExp]> = [
    ['the input is empty', '\n\n', /^x\.csv: the CSV is empty/],
    ['the header does not start with Date', 'Day,USD,\n2026-04-13,1.1,\n', /^x\.csv line 1: the header must start with "Date"/],
    ['the header lists no currency', 'Date,\n2026-04-13,\n', /^x\.csv line 1: the header lists no currencies/],
    ['a header column is not a code', 'Date,USD,Yen,\n2026-04-13,1.1,1,\n', /^x\.csv line 1: header column "Yen" is not a currency code/],
    ['a header column is empty', 'Date,USD,,JPY,\n', /^x\.csv line 1: header column "" is not a currency code/],
    ['a header code repeats', 'Date,USD,USD,\n2026-04-13,1.1,1.1,\n', /^x\.csv line 1: currency USD appears twice in the header/],
    ['there is no data row', H, /^x\.csv: the CSV has a header but no data rows/],
    ['a row has more fields', `${H}2026-04-13,1.1,180,5,\n`, /^x\.csv line 2: the row has 4 fields, more than the header's 3/],
    ['a row ends with two commas', `${H}2026-04-13,1.1,180,,\n`, /^x\.csv line 2: the row has 4 fields, more than/],
    ['a row has an impossible date', `${H}2026-02-29,1.1,180,\n`, /^x\.csv line 2: invalid date "2026-02-29"/],
    ['a history row uses the daily date style', `${H}13 April 2026,1.1,180,\n`, /^x\.csv line 2: invalid date "13 April 2026"/],
    ['a value is empty', `${H}2026-04-13,,180,\n`, /^x\.csv line 2, USD on 2026-04-13: invalid rate ""/],
    ['a value is negative', `${H}2026-04-13,1.1,-180,\n`, /^x\.csv line 2, JPY on 2026-04-13: invalid rate "-180"/],
    ['a value is zero', `${H}2026-04-13,0,180,\n`, /^x\.csv line 2, USD on 2026-04-13: rate must be greater than zero/],
    ['a row is all N/A', `${H}2026-04-13,1.1,180,\n2026-04-10,N/A,N/A,\n`, /^x\.csv line 3: the row for 2026-04-10 has no rates/],
    ['a blank line sits inside the data', `${H}2026-04-13,1.1,180,\n\n2026-04-10,1.1,180,\n`, /^x\.csv line 3: empty line inside the data/],
    ['a daily row names an unknown month', 'Date, USD, \n13 Aprile 2026, 1.1684, \n', /^x\.csv line 2: invalid date "13 Aprile 2026"/],
    ['a daily row names a day the month lacks', 'Date, USD, \n31 April 2026, 1.1684, \n', /^x\.csv line 2: invalid date "31 April 2026"/],
    ['a daily row is short', 'Date, USD, JPY, \n13 April 2026, 1.1684, \n', /^x\.csv line 2: the row has 2 fields, fewer than the header's 3/],
  ];
  for (const [when, text, message] of cases) {
    test(`when ${when}, then IngestFormatError names the source and the line`, () => {
      assertFormatError(() => parseEcbCsv(text, 'x.csv'), message);
    });
  }
});

describe('parseEcbCsv on the real ECB files', () => {
  test('when eurofxref-hist.csv is parsed, then it gives 6,983 days from 1999-01-04 to 2026-04-13', async (t) => {
    const text = await historyCsvText();
    const started = performance.now();
    const days = parseEcbCsv(text, 'eurofxref-hist.csv');
    t.diagnostic(`parseEcbCsv(eurofxref-hist.csv): ${days.length} days in ${(performance.now() - started).toFixed(1)} ms`);

    assert.equal(days.length, 6983);
    assert.equal(days[0]?.date, '2026-04-13');
    assert.equal(days.at(-1)?.date, '1999-01-04');
    const last = days[0];
    assert.equal(last?.rates.size, 29);
    assert.deepEqual([...(last?.rates.keys() ?? [])].sort(), 'AUD BRL CAD CHF CNY CZK DKK GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD ZAR'.split(' '));
    assert.equal(last?.rates.get('USD'), '1.1684');
    assert.equal(days.find((d) => d.date === '2022-08-31')?.rates.get('USD'), '1');
    assert.equal(days.filter((d) => d.rates.has('ISK')).length, 4642);
  });

  test('when eurofxref.csv (daily style) is parsed, then it equals the history row for 2026-04-13', async () => {
    const daily = parseEcbCsv(ecb('eurofxref.csv'), 'eurofxref.csv');
    const history = parseEcbCsv(await historyCsvText(), 'eurofxref-hist.csv');
    assert.equal(daily.length, 1);
    assert.deepEqual(daily[0], history.find((d) => d.date === '2026-04-13'));
  });
});
