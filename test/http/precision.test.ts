import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { errorBody, expectError, expectJson, MSG } from '../helpers/http-expect.js';
import { divide, formatHalfUp, multiply, parseDecimal, perEuro, subtract, type EcbDay, type Rational } from '../helpers/oracle.js';
import { ECB_FIXTURES, read, startTestApp } from '../helpers/test-server.js';

/**
 * `precision` (DECISIONS §15) over HTTP on every endpoint it applies to, against the ECB's 90-day
 * file (30 currencies, 2024-11-28 .. 2025-02-25): each expected value is worked out here from the
 * fixture's own quotes with exact rationals, rounded once half away from zero to the digits asked.
 */

const V1 = '/api/v1';
const PRECISION = 'precision must be an integer from 0 to 12';
const PLACES = [0, 2, 10, 12];

/** The fixture's days, read from its XML independently of the service's parser: per-EUR quotes by day. */
const DAYS: ReadonlyMap<string, EcbDay> = (() => {
  const xml = readFileSync(`${ECB_FIXTURES}eurofxref-hist-90d.xml`, 'utf8');
  const days = new Map<string, Record<string, string>>();
  for (const [, date, body] of xml.matchAll(/<Cube time="(\d{4}-\d{2}-\d{2})">(.*?)<\/Cube>/gs)) {
    days.set(date!, Object.fromEntries([...body!.matchAll(/currency="([A-Z]{3})" rate="([^"]+)"/g)].map(([, code, rate]) => [code, rate])));
  }
  return days;
})();
const NEWEST = [...DAYS.keys()].sort().at(-1)!;
const dayOf = (date: string) => DAYS.get(date)!;
/** Every code quoted on a day, EUR included, alphabetical (as a rate set lists them). */
const codesOf = (date: string) => ['EUR', ...Object.keys(dayOf(date))].sort();

const rateOn = (date: string, base: string, code: string): Rational => divide(perEuro(dayOf(date), code), perEuro(dayOf(date), base));
const rateSet = (date: string, base: string, codes: readonly string[], places: number) =>
  Object.fromEntries([...codes].sort().map((code) => [code, formatHalfUp(rateOn(date, base, code), places)]));

test('precision over the ECB 90-day history', async (t) => {
  const server = await startTestApp(t, { ingest: ['ecb/eurofxref-hist-90d.xml'] });
  const get = (path: string, headers: Record<string, string> = {}) => server.get(V1 + path, { headers });

  await t.test('when the latest rates of a weak base are asked with a precision, then every rate has that many digits, rounded once', async () => {
    assert.equal(NEWEST, '2025-02-25');
    assert.equal(codesOf(NEWEST).length, 31);
    for (const places of PLACES) {
      await expectJson(get(`/rates/latest?base=IDR&precision=${places}`), 200, { base: 'IDR', date: NEWEST, rates: rateSet(NEWEST, 'IDR', codesOf(NEWEST), places) });
    }
    // 1 IDR is 0.0000583… USD: 10 digits show it, 2 round it to zero.
    const ten = (await read(await get('/rates/latest?base=IDR&precision=10&symbols=USD'))).json as { rates: { USD: string } };
    assert.match(ten.rates.USD, /^0\.0000\d{6}$/);
    assert.notEqual(ten.rates.USD, '0.0000000000');
  });

  await t.test('when one day is asked with a precision, then its rate set has that many digits, 0 giving integers without a point', async () => {
    const symbols = ['USD', 'JPY', 'GBP', 'IDR', 'EUR'];
    for (const places of PLACES) {
      const answer = await expectJson(get(`/rates/2025-01-15?base=usd&symbols=${symbols.join(',')}&precision=${places}`), 200, {
        base: 'USD',
        date: '2025-01-15',
        rates: rateSet('2025-01-15', 'USD', symbols, places),
      });
      if (places === 0) assert.doesNotMatch(answer.text, /\d\.[",]/, 'no decimal point without digits after it');
    }
    await expectJson(get('/rates/2025-01-15?symbols=USD,EUR&precision=0'), 200, { base: 'EUR', date: '2025-01-15', rates: { EUR: '1', USD: '1' } });
  });

  await t.test('when a range is asked with a precision, then each day, as JSON and as CSV, has that many digits', async () => {
    const dates = [...DAYS.keys()].filter((date) => date >= '2025-02-19' && date <= '2025-02-25').sort();
    assert.equal(dates.length, 5);
    const symbols = ['USD', 'JPY', 'GBP'];
    for (const places of PLACES) {
      const path = `/rates/2025-02-19..2025-02-25?base=IDR&symbols=${symbols.join(',')}&precision=${places}`;
      await expectJson(get(path), 200, {
        base: 'IDR',
        start_date: '2025-02-19',
        end_date: '2025-02-25',
        rates: Object.fromEntries(dates.map((date) => [date, rateSet(date, 'IDR', symbols, places)])),
      });
      const csv = await read(await get(path, { accept: 'text/csv' }));
      assert.equal(csv.status, 200);
      const rows = dates.map((date) => [date, ...['GBP', 'JPY', 'USD'].map((code) => formatHalfUp(rateOn(date, 'IDR', code), places))].join(','));
      assert.equal(csv.text, ['date,GBP,JPY,USD', ...rows].join('\r\n') + '\r\n');
    }
  });

  await t.test('when fluctuation is asked with a precision, then rates, change and change_pct have that many digits, never -0', async () => {
    const dates = [...DAYS.keys()].filter((date) => date >= '2025-01-01' && date <= '2025-02-25').sort();
    const [first, last] = [dates[0]!, dates.at(-1)!];
    const symbols = ['USD', 'JPY', 'HUF', 'EUR'];
    for (const places of PLACES) {
      const moves = Object.fromEntries(
        [...symbols].sort().map((code) => {
          const start = rateOn(first, 'IDR', code);
          const end = rateOn(last, 'IDR', code);
          const change = subtract(end, start);
          return [
            code,
            {
              start_date: first,
              end_date: last,
              start_rate: formatHalfUp(start, places),
              end_rate: formatHalfUp(end, places),
              change: formatHalfUp(change, places),
              change_pct: formatHalfUp(multiply(divide(change, start), { num: 100n, den: 1n }), places),
            },
          ];
        }),
      );
      const answer = await expectJson(get(`/fluctuation/2025-01-01..2025-02-25?base=IDR&symbols=${symbols.join(',')}&precision=${places}`), 200, {
        base: 'IDR',
        start_date: '2025-01-01',
        end_date: '2025-02-25',
        rates: moves,
      });
      assert.doesNotMatch(answer.text, /"-0(\.0*)?"/);
    }
  });

  await t.test('when a conversion is asked with a precision, then its result and rate have that many digits, the result from the exact rate', async () => {
    const amount = '1234567.891';
    for (const places of PLACES) {
      const rate = rateOn(NEWEST, 'IDR', 'USD');
      await expectJson(get(`/convert?from=IDR&to=usd&amount=${amount}&precision=${places}`), 200, {
        from: 'IDR',
        to: 'USD',
        amount,
        result: formatHalfUp(multiply(parseDecimal(amount), rate), places),
        rate: formatHalfUp(rate, places),
        date: NEWEST,
      });
      const onDay = rateOn('2025-01-15', 'JPY', 'GBP');
      await expectJson(get(`/convert?from=JPY&to=GBP&amount=0.5&date=2025-01-15&precision=${places}`), 200, {
        from: 'JPY',
        to: 'GBP',
        amount: '0.5',
        result: formatHalfUp(multiply(parseDecimal('0.5'), onDay), places),
        rate: formatHalfUp(onDay, places),
        date: '2025-01-15',
      });
    }
    // A tie rounds away from zero: 2.5 EUR in EUR at precision 0 is 3.
    await expectJson(get('/convert?from=EUR&to=EUR&amount=2.5&precision=0'), 200, { from: 'EUR', to: 'EUR', amount: '2.5', result: '3', rate: '1', date: NEWEST });
  });

  await t.test('when a bulk conversion is asked with a precision, then every entry has that many digits', async () => {
    const targets = ['USD', 'JPY', 'GBP', 'usd'];
    for (const places of PLACES) {
      await expectJson(get(`/convert/bulk?from=IDR&amount=250.50&to=${targets.join(',')}&precision=${places}`), 200, {
        from: 'IDR',
        amount: '250.50',
        date: NEWEST,
        conversions: ['USD', 'JPY', 'GBP'].map((to) => {
          const rate = rateOn(NEWEST, 'IDR', to);
          return { to, result: formatHalfUp(multiply(parseDecimal('250.50'), rate), places), rate: formatHalfUp(rate, places) };
        }),
      });
    }
  });

  await t.test('when precision is 6 or absent, then the answer is the same bytes on every endpoint', async () => {
    for (const path of [
      '/rates/latest?base=IDR',
      '/rates/2025-01-15?base=IDR',
      '/rates/2025-02-19..2025-02-25?base=IDR',
      '/fluctuation/2025-01-01..2025-02-25?base=IDR',
      '/convert?from=IDR&to=USD&amount=1234567.891',
      '/convert/bulk?from=IDR&amount=250.50&to=USD,JPY',
    ]) {
      const plain = await read(await get(path));
      const six = await read(await get(`${path}&precision=6`));
      assert.equal(plain.status, 200, path);
      assert.equal(six.text, plain.text, path);
      assert.equal(six.headers.get('etag'), plain.headers.get('etag'), path);
    }
  });

  await t.test('when the same URL is cached at precision 6 and asked at precision 2, then each gets its own body and ETag', async () => {
    const path = '/rates/2025-02-19..2025-02-25?base=IDR&symbols=USD,JPY';
    const six = await read(await get(path));
    const two = await read(await get(`${path}&precision=2`));
    assert.notEqual(two.text, six.text);
    assert.notEqual(two.headers.get('etag'), six.headers.get('etag'));
    assert.deepEqual((two.json as { rates: Record<string, unknown> }).rates['2025-02-25'], rateSet('2025-02-25', 'IDR', ['USD', 'JPY'], 2));
    // Asked again, each comes from the cache unchanged; one's ETag does not validate the other.
    assert.equal((await read(await get(path))).text, six.text);
    assert.equal((await read(await get(`${path}&precision=2`))).text, two.text);
    assert.equal((await get(`${path}&precision=2`, { 'if-none-match': six.headers.get('etag')! })).status, 200);
    assert.equal((await get(`${path}&precision=2`, { 'if-none-match': two.headers.get('etag')! })).status, 304);
    const latest6 = await read(await get('/rates/latest?symbols=USD'));
    const latest2 = await read(await get('/rates/latest?symbols=USD&precision=2'));
    assert.deepEqual(latest2.json, { base: 'EUR', date: NEWEST, rates: { USD: formatHalfUp(perEuro(dayOf(NEWEST), 'USD'), 2) } });
    assert.notEqual(latest2.text, latest6.text);
  });
});

test('precision validation', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const get = (path: string) => server.get(V1 + path);
  const ENDPOINTS = [
    '/rates/latest?',
    '/rates/2026-04-13?',
    '/rates/2026-04-10..2026-04-13?',
    '/fluctuation/2026-04-10..2026-04-13?',
    '/convert?from=USD&to=JPY&amount=10&',
    '/convert/bulk?from=USD&amount=10&to=JPY,GBP&',
  ];

  await t.test('when precision is anything but a plain integer from 0 to 12, then each endpoint answers that one message', async () => {
    const bad = ['13', '-1', '100', '06', '00', '+6', '6.0', '6.', '1e1', '%206', '6%20', 'six', '0x6', ''];
    for (const endpoint of ENDPOINTS) {
      for (const value of bad) await expectError(get(`${endpoint}precision=${value}`), 400, [PRECISION], `${endpoint}precision=${value}`);
      await expectError(get(`${endpoint}precision=2&precision=2`), 400, [PRECISION], `${endpoint} repeated`);
    }
  });

  await t.test('when precision is each integer from 0 to 12, then it is accepted', async () => {
    for (let places = 0; places <= 12; places++) {
      const answer = await read(await get(`/rates/2026-04-13?symbols=JPY&precision=${places}`));
      assert.equal(answer.status, 200, answer.text);
      // 186.75 per EUR: no more digits than asked, padded with zeros to exactly that many.
      assert.deepEqual(answer.json, { base: 'EUR', date: '2026-04-13', rates: { JPY: places === 0 ? '187' : places === 1 ? '186.8' : `186.75${'0'.repeat(places - 2)}` } });
    }
  });

  await t.test('when other rules fail too, then the precision message closes the array, after theirs', async () => {
    await expectError(get('/rates/latest?symbols=US,&base=EU&precision=13'), 400, [MSG.base, MSG.symbols, PRECISION]);
    await expectError(get('/rates/latest?precision=x&symbols=,'), 400, [MSG.symbols, PRECISION]);
    await expectError(get('/rates/2026-02-30?base=1&precision=-1'), 400, [MSG.date, MSG.base, PRECISION]);
    await expectError(get('/rates/2026-04-13..2026-04-10?symbols=x&precision=13'), 400, [MSG.order, MSG.symbols, PRECISION]);
    await expectError(get('/fluctuation/x..y?precision=13&base=x'), 400, [MSG.start, MSG.end, MSG.base, PRECISION]);
    await expectError(get('/convert?precision=13&amount=x&to=1&from=2&date=2026-02-30'), 400, [MSG.from, MSG.to, MSG.amount, MSG.date, PRECISION]);
    await expectError(get('/convert/bulk?precision=13&date=x&from=2&amount=y'), 400, [MSG.from, MSG.amount, MSG.toMin, MSG.date, PRECISION]);
  });

  await t.test('when precision is malformed and a currency unknown, then the format message wins (DECISIONS §1)', async () => {
    await expectError(get('/rates/latest?base=XYZ&precision=13'), 400, [PRECISION]);
    await expectError(get('/convert?from=XYZ&to=USD&amount=-1&precision=13'), 400, [PRECISION]);
    const unknown = await read(await get('/rates/latest?base=XYZ&precision=2'));
    assert.deepEqual(unknown.json, errorBody(400, 'Unknown currency: XYZ'));
  });

  await t.test('when precision is given where it has no meaning, then it is ignored as any unknown parameter', async () => {
    const plain = await read(await get('/currencies'));
    const withPrecision = await read(await get('/currencies?precision=13'));
    assert.equal(withPrecision.status, 200);
    assert.equal(withPrecision.text, plain.text);
  });
});
