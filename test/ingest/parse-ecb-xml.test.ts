import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEcbXml } from '../../src/ingest/parse-ecb-xml.js';
import { IngestFormatError, type ParsedDay } from '../../src/ingest/parsed-day.js';
import { ECB_FIXTURES } from '../helpers/ecb-history-csv.js';

const FIXTURES = path.resolve(process.cwd(), 'test/fixtures');

const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const ecb = (name: string): string => readFileSync(path.join(ECB_FIXTURES, name), 'utf8');
const day = (date: string, rates: Record<string, string>): ParsedDay => ({ date, rates: new Map(Object.entries(rates)) });

const HEAD = '<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject>';
const TAIL = '</gesmes:Envelope>';
/** A compact gesmes document around the given outer-Cube content. */
const doc = (cubes: string): string => `${HEAD}<Cube>${cubes}</Cube>${TAIL}`;

function assertFormatError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof IngestFormatError, `expected IngestFormatError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

describe('parseEcbXml on the fixtures', () => {
  test('when daily.xml (tabs, single quotes, no final newline) is parsed, then it gives its one day with canonical rates', () => {
    assert.deepEqual(parseEcbXml(fixture('daily.xml'), 'daily.xml'), [
      day('2026-07-06', { USD: '1.1415', JPY: '185.31', GBP: '0.85538', HUF: '353.5', CHF: '0.9201', ISK: '144' }),
    ]);
  });

  test('when hist-90d.xml (one line per day, double quotes) is parsed, then it gives its three days in file order', () => {
    assert.deepEqual(parseEcbXml(fixture('hist-90d.xml'), 'hist-90d.xml'), [
      day('2025-02-25', { USD: '1.0497', JPY: '157.19', BGN: '1.9558', GBP: '0.82908', HUF: '401.2', CHF: '0.9386' }),
      day('2025-02-24', { USD: '1.0466', JPY: '156.81', BGN: '1.9558', GBP: '0.8283', HUF: '401.69', CHF: '0.9415' }),
      day('2025-02-21', { USD: '1.0465', JPY: '157.46', BGN: '1.9558', GBP: '0.8276', HUF: '404.6', CHF: '0.942' }),
    ]);
  });

  test('when truncated.xml is parsed, then the error names the file and the line where it stops', () => {
    assertFormatError(() => parseEcbXml(fixture('truncated.xml'), 'truncated.xml'),
      /^truncated\.xml: XML ends at line 10 with <gesmes:Envelope>, <Cube>, <Cube> still open/);
  });

  test('when bad-rate.xml is parsed, then the error names the day, the currency and the bad value', () => {
    assertFormatError(() => parseEcbXml(fixture('bad-rate.xml'), 'bad-rate.xml'),
      /^bad-rate\.xml: Cube time=2026-07-03 currency=USD: invalid rate "1,1412"/);
  });
});

describe('parseEcbXml on layout variants', () => {
  test('when the document has CRLF line ends, a BOM and leading blank lines, then it still parses', () => {
    const text = `\uFEFF\r\n\r\n${fixture('daily.xml').replace(/\n/g, '\r\n')}\r\n`;
    const days = parseEcbXml(text, 'crlf.xml');
    assert.equal(days[0]?.rates.get('HUF'), '353.5');
  });

  test('when a day holds a single rate, then the rate still comes back (single Cubes are arrays)', () => {
    assert.deepEqual(parseEcbXml(doc('<Cube time="2025-01-02"><Cube currency="USD" rate="1.0321"/></Cube>'), 's'),
      [day('2025-01-02', { USD: '1.0321' })]);
  });

  test('when a malformed document has leading blank lines, then the reported line counts them', () => {
    assertFormatError(() => parseEcbXml('\n\n<a>\n<b></a>', 'lines.xml'), /^lines\.xml: malformed XML at line 4/);
  });
});

describe('parseEcbXml rejects malformed input', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['the input is empty', '', /^x\.xml: malformed XML at line 1/],
    ['the input stops inside an attribute', `${HEAD}\n<Cube>\n<Cube time="2025-01-02">\n<Cube currency="USD" rate="1.0`, /^x\.xml: malformed XML at line 4/],
    ['the root is not gesmes:Envelope', '<rates><Cube/></rates>', /^x\.xml: root element is not gesmes:Envelope/],
    ['the Envelope has no Cube', `${HEAD}${TAIL}`, /^x\.xml: gesmes:Envelope has no Cube element/],
    ['the outer Cube is empty', doc(''), /^x\.xml: the file holds no days/],
    ['a day Cube has no time', doc('<Cube><Cube currency="USD" rate="1"/></Cube>'), /^x\.xml: day Cube #1 has no time attribute/],
    ['a day Cube has an impossible date', doc('<Cube time="2025-02-29"><Cube currency="USD" rate="1"/></Cube>'), /^x\.xml: day Cube #1 has an invalid time "2025-02-29"/],
    ['a currency is lower-case', doc('<Cube time="2025-01-02"><Cube currency="usd" rate="1"/></Cube>'), /^x\.xml: Cube time=2025-01-02: invalid currency "usd"/],
    ['a rate Cube has no currency', doc('<Cube time="2025-01-02"><Cube rate="1"/></Cube>'), /^x\.xml: Cube time=2025-01-02: rate Cube #1 has no currency/],
    ['a rate Cube has no rate', doc('<Cube time="2025-01-02"><Cube currency="USD"/></Cube>'), /^x\.xml: Cube time=2025-01-02 currency=USD has no rate attribute/],
    ['a rate is zero', doc('<Cube time="2025-01-02"><Cube currency="USD" rate="0.0000"/></Cube>'), /^x\.xml: Cube time=2025-01-02 currency=USD: rate must be greater than zero/],
    ['a rate is padded with spaces', doc('<Cube time="2025-01-02"><Cube currency="USD" rate=" 1.03"/></Cube>'), /currency=USD: invalid rate " 1\.03"/],
    ['a rate uses an exponent', doc('<Cube time="2025-01-02"><Cube currency="USD" rate="1e3"/></Cube>'), /currency=USD: invalid rate "1e3"/],
    ['a day has no rates', doc('<Cube time="2025-01-02"></Cube>'), /^x\.xml: Cube time=2025-01-02 has no rates/],
    ['the same date appears twice', doc('<Cube time="2025-01-02"><Cube currency="USD" rate="1"/></Cube><Cube time="2025-01-02"><Cube currency="USD" rate="1"/></Cube>'), /^x\.xml: Cube time=2025-01-02 appears twice/],
    ['the same currency appears twice in a day', doc('<Cube time="2025-01-02"><Cube currency="USD" rate="1"/><Cube currency="USD" rate="1.1"/></Cube>'), /^x\.xml: Cube time=2025-01-02 currency=USD appears twice/],
  ];
  for (const [when, text, message] of cases) {
    test(`when ${when}, then IngestFormatError names the source and the element`, () => {
      assertFormatError(() => parseEcbXml(text, 'x.xml'), message);
    });
  }
});

describe('parseEcbXml on the real ECB files', () => {
  test('when eurofxref-daily.xml is parsed, then it gives 2026-07-06 with 29 currencies', () => {
    const days = parseEcbXml(ecb('eurofxref-daily.xml'), 'eurofxref-daily.xml');
    assert.equal(days.length, 1);
    assert.equal(days[0]?.date, '2026-07-06');
    assert.equal(days[0]?.rates.size, 29);
    assert.equal(days[0]?.rates.get('USD'), '1.1415');
    assert.equal(days[0]?.rates.get('HUF'), '353.5');
  });

  test('when the 2025-11-10 daily file is parsed, then it still carries BGN among 30 currencies', () => {
    const [only] = parseEcbXml(ecb('eurofxref-daily.2025-11-10.xml'), 'daily.2025-11-10.xml');
    assert.equal(only?.date, '2025-11-10');
    assert.equal(only?.rates.size, 30);
    assert.equal(only?.rates.get('BGN'), '1.9558');
  });

  test('when eurofxref-hist-90d.xml is parsed, then it gives 61 days from 2025-02-25 down to 2024-11-28', () => {
    const days = parseEcbXml(ecb('eurofxref-hist-90d.xml'), 'eurofxref-hist-90d.xml');
    assert.equal(days.length, 61);
    assert.equal(days[0]?.date, '2025-02-25');
    assert.equal(days.at(-1)?.date, '2024-11-28');
    assert.equal(days[0]?.rates.size, 30);
  });

  test('when the 2020 90-day file is parsed, then it gives 64 days including HRK and RUB', () => {
    const days = parseEcbXml(ecb('eurofxref-hist-90d.2020-12-10.xml'), 'eurofxref-hist-90d.2020-12-10.xml');
    assert.equal(days.length, 64);
    assert.ok(days.every((d) => d.rates.has('HRK') && d.rates.has('RUB')));
  });
});
