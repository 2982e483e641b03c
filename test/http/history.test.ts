import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorBody, expectError, expectJson, MSG, noDataInRange, noDataOn, remainingOf, unknownCurrency } from '../helpers/http-expect.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * Ranges, fluctuation and conversion on a past day (DECISIONS §8) over HTTP, byte for byte.
 * hist.csv holds 2022-08-31, 2025-12-31, 2026-04-10 and 2026-04-13 (BGN is N/A in 2026); the
 * expected values are its per-EUR quotes worked out by hand (test/fixtures/README.md), rounded once.
 */

const V1 = '/api/v1';
const CSV_TYPE = 'text/csv; charset=utf-8';

test('ranges, fluctuation and conversion on a past day over hist.csv', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const get = (path: string, headers: Record<string, string> = {}) => server.get(V1 + path, { headers });

  await t.test('when a range is asked with symbols, then each day with a rate for the base appears, a symbol without a rate that day left out', async () => {
    await expectJson(get('/rates/2025-12-01..2026-04-12?symbols=USD,bgn'), 200, {
      base: 'EUR',
      start_date: '2025-12-01',
      end_date: '2026-04-12',
      rates: { '2025-12-31': { BGN: '1.955800', USD: '1.175000' }, '2026-04-10': { USD: '1.171100' } },
    });
  });

  await t.test('when a range is asked without symbols, then each day is the rate set /rates/{day} gives, base included', async () => {
    const range = await read(await get('/rates/2026-04-10..2026-04-13?base=usd'));
    assert.equal(range.status, 200, range.text);
    const days = (range.json as { rates: Record<string, unknown> }).rates;
    assert.deepEqual(Object.keys(days), ['2026-04-10', '2026-04-13']);
    for (const day of Object.keys(days)) {
      const single = (await read(await get(`/rates/${day}?base=USD`))).json as { rates: unknown };
      assert.deepEqual(days[day], single.rates, day);
    }
  });

  await t.test('when the end is open, then the range reaches the newest day the base has a rate on, and end_date shows it', async () => {
    await expectJson(get('/rates/2022-01-01..?base=BGN&symbols=USD'), 200, {
      base: 'BGN',
      start_date: '2022-01-01',
      end_date: '2025-12-31',
      // 1 / 1.9558 = 0.51129972… and 1.175 / 1.9558 = 0.60077717…
      rates: { '2022-08-31': { USD: '0.511300' }, '2025-12-31': { USD: '0.600777' } },
    });
  });

  await t.test('when a range is one day, then it holds that day', async () => {
    await expectJson(get('/rates/2026-04-13..2026-04-13?symbols=GBP'), 200, {
      base: 'EUR',
      start_date: '2026-04-13',
      end_date: '2026-04-13',
      rates: { '2026-04-13': { GBP: '0.870580' } },
    });
  });

  await t.test('when a range holds no day with a rate for the base, then 404 names the range (open: from START)', async () => {
    await expectError(get('/rates/2026-04-11..2026-04-12'), 404, noDataInRange('2026-04-11', '2026-04-12'));
    await expectError(get('/rates/2026-04-14..'), 404, noDataInRange('2026-04-14', undefined));
    await expectError(get('/rates/2026-01-01..2026-04-13?base=BGN'), 404, noDataInRange('2026-01-01', '2026-04-13'));
    await expectError(get('/fluctuation/1999-01-01..2000-01-01'), 404, noDataInRange('1999-01-01', '2000-01-01'));
    await expectError(get('/fluctuation/2026-04-14..'), 404, noDataInRange('2026-04-14', undefined));
  });

  await t.test('when the range is malformed, then 400 lists start, end, order, then base and symbols, in that order', async () => {
    const cases: [string, string[]][] = [
      ['/rates/x..y?base=US&symbols=1', [MSG.start, MSG.end, MSG.base, MSG.symbols]],
      ['/rates/2020-02-01..2020-01-31', [MSG.order]],
      ['/rates/2020-02-01..2020-01-31?symbols=USD,', [MSG.order, MSG.symbols]],
      // The order is checked only when both dates are valid.
      ['/rates/2020-13-01..2020-01-01', [MSG.start]],
      ['/rates/2020-01-01..2019-02-29', [MSG.end]],
      ['/rates/..2020-01-01', [MSG.start]],
      ['/rates/2020-01-01..2020-01-01..2020-02-01', [MSG.start]],
      ['/rates/2020-01-01...2020-02-01', [MSG.end]],
      ['/fluctuation/2021-02-29..?base=EURO', [MSG.start, MSG.base]],
      ['/fluctuation/2020-02-01..2020-01-31', [MSG.order]],
    ];
    for (const [path, messages] of cases) await expectError(get(path), 400, messages, path);
  });

  await t.test('when a range or fluctuation names an untracked currency, then 400 names the first one', async () => {
    await expectError(get('/rates/2020-01-01..?base=XYZ&symbols=ABC'), 400, unknownCurrency('XYZ'));
    await expectError(get('/fluctuation/2020-01-01..2026-01-01?symbols=USD,ABC'), 400, unknownCurrency('ABC'));
  });

  await t.test('when fluctuation is asked, then each currency moves from its first to its last day with a rate, change from the exact rates', async () => {
    await expectJson(get('/fluctuation/2022-08-31..2026-04-13?symbols=USD,BGN'), 200, {
      base: 'EUR',
      start_date: '2022-08-31',
      end_date: '2026-04-13',
      rates: {
        BGN: { start_date: '2022-08-31', end_date: '2025-12-31', start_rate: '1.955800', end_rate: '1.955800', change: '0.000000', change_pct: '0.000000' },
        USD: { start_date: '2022-08-31', end_date: '2026-04-13', start_rate: '1.000000', end_rate: '1.168400', change: '0.168400', change_pct: '16.840000' },
      },
    });
    // GBP in USD: 0.87105/1.1711 → 0.87058/1.1684. The shown rates differ by 0.001316; the exact
    // change is 0.00131654…, so 0.001317.
    await expectJson(get('/fluctuation/2026-04-01..?base=USD'), 200, {
      base: 'USD',
      start_date: '2026-04-01',
      end_date: '2026-04-13',
      rates: {
        CHF: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '0.789087', end_rate: '0.790996', change: '0.001909', change_pct: '0.241932' },
        EUR: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '0.853898', end_rate: '0.855871', change: '0.001973', change_pct: '0.231085' },
        GBP: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '0.743788', end_rate: '0.745104', change: '0.001317', change_pct: '0.177003' },
        HUF: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '322.090342', end_rate: '314.019172', change: '-8.071171', change_pct: '-2.505872' },
        JPY: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '159.192212', end_rate: '159.833961', change: '0.641749', change_pct: '0.403128' },
        USD: { start_date: '2026-04-10', end_date: '2026-04-13', start_rate: '1.000000', end_rate: '1.000000', change: '0.000000', change_pct: '0.000000' },
      },
    });
  });

  await t.test('when /fluctuation has no range in its path, then it is an unknown path', async () => {
    await expectError(get('/fluctuation/2020-01-01'), 404, `Cannot GET ${V1}/fluctuation/2020-01-01`);
  });

  await t.test('when a range is asked with Accept: text/csv, then one row per day, an empty cell where a day has no rate', async () => {
    const answer = await read(await get('/rates/2025-12-31..2026-04-13?symbols=usd,BGN', { accept: 'text/csv' }));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), CSV_TYPE);
    assert.equal(answer.headers.get('vary'), 'Accept');
    assert.equal(answer.text, 'date,BGN,USD\r\n2025-12-31,1.955800,1.175000\r\n2026-04-10,,1.171100\r\n2026-04-13,,1.168400\r\n');
    const json = await read(await get('/rates/2025-12-31..2026-04-13?symbols=usd,BGN'));
    assert.notEqual(answer.headers.get('etag'), json.headers.get('etag'), 'each representation has its own ETag');
    const again = await get('/rates/2025-12-31..2026-04-13?symbols=usd,BGN', { accept: 'text/csv', 'if-none-match': answer.headers.get('etag')! });
    assert.equal(again.status, 304);
  });

  await t.test('when CSV is acceptable but JSON preferred, or neither is named, then the answer is JSON', async () => {
    for (const accept of ['application/json, text/csv;q=0.5', '*/*', 'image/png']) {
      const answer = await read(await get('/rates/2026-04-13..?symbols=GBP', { accept }));
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8', accept);
    }
    const csv = await read(await get('/rates/2026-04-13..?symbols=GBP', { accept: 'application/json;q=0.1, text/*' }));
    assert.equal(csv.text, 'date,GBP\r\n2026-04-13,0.870580\r\n');
  });

  await t.test('when a CSV answer fails, then the error is JSON', async () => {
    await expectError(get('/rates/2020-02-01..2020-01-01', { accept: 'text/csv' }), 400, [MSG.order]);
    await expectError(get('/rates/2026-04-14..', { accept: 'text/csv' }), 404, noDataInRange('2026-04-14', undefined));
  });

  await t.test('when the whole history is one range, then it counts once and carries ETag, rate-limit and CORS headers', async () => {
    const before = remainingOf(await read(await get('/currencies')));
    const answer = await read(await get('/rates/1999-01-04..'));
    assert.equal(answer.status, 200);
    assert.equal(remainingOf(answer), before - 1);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    const etag = answer.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]+"$/);
    const notModified = await get('/rates/1999-01-04..', { 'if-none-match': etag! });
    assert.equal(notModified.status, 304);
    assert.equal(remainingOf(notModified), before - 2, 'a 304 counts too');
    const head = await server.get(`${V1}/fluctuation/1999-01-04..`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  await t.test('when a range path gets OPTIONS or POST, then the preflight and the 405 answer as on every API path', async () => {
    const preflight = await server.get(`${V1}/rates/2020-01-01..`, { method: 'OPTIONS', auth: false });
    assert.equal(preflight.status, 204);
    const post = await server.get(`${V1}/fluctuation/2020-01-01..2020-02-01`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  await t.test('when /convert has a date, then that day exactly is used, and a day without the rates is a 404', async () => {
    // 100 × 0.8726 / 1.175 = 74.26382978…; 0.8726 / 1.175 = 0.74263829…
    await expectJson(get('/convert?from=USD&to=gbp&amount=100&date=2025-12-31'), 200, {
      from: 'USD', to: 'GBP', amount: '100', result: '74.263830', rate: '0.742638', date: '2025-12-31',
    });
    await expectError(get('/convert?from=USD&to=GBP&amount=100&date=2026-04-11'), 404, noDataOn('2026-04-11'));
    await expectError(get('/convert?from=BGN&to=GBP&amount=100&date=2026-04-13'), 404, noDataOn('2026-04-13'));
    await expectError(get('/convert?from=GBP&to=BGN&amount=100&date=2026-04-10'), 404, noDataOn('2026-04-10'));
    // Without a date, the latest day quoting both: BGN's last, 2025-12-31.
    const latest = (await read(await get('/convert?from=GBP&to=BGN&amount=100'))).json as { date: string };
    assert.equal(latest.date, '2025-12-31');
  });

  await t.test('when /convert/bulk has a date, then every target is converted on that day, and one without a rate makes it a 404', async () => {
    // 250.5 × 1.9558 / 0.8726 = 561.45759798…; 250.5 × 184.09 / 0.8726 = 52847.28970891…
    await expectJson(get('/convert/bulk?from=GBP&amount=250.5&to=BGN,JPY,bgn&date=2025-12-31'), 200, {
      from: 'GBP',
      amount: '250.5',
      date: '2025-12-31',
      conversions: [
        { to: 'BGN', result: '561.457598', rate: '2.241348' },
        { to: 'JPY', result: '52847.289709', rate: '210.967224' },
      ],
    });
    await expectError(get('/convert/bulk?from=GBP&amount=1&to=USD,BGN&date=2026-04-13'), 404, noDataOn('2026-04-13'));
  });

  await t.test('when a conversion date is malformed, then its message comes last, after the other format rules', async () => {
    await expectError(get('/convert?from=U&to=J&amount=x&date=2025-02-29'), 400, [MSG.from, MSG.to, MSG.amount, MSG.date]);
    await expectError(get('/convert/bulk?from=U&amount=x&to=&date=20250101'), 400, [MSG.from, MSG.amount, MSG.toMin, MSG.date]);
    await expectError(get('/convert?from=USD&to=GBP&amount=1&date='), 400, [MSG.date]);
    await expectError(get('/convert?from=USD&to=GBP&amount=1&date=2025-12-31&date=2026-04-13'), 400, [MSG.date]);
  });

  await t.test('when a dated conversion also breaks a later rule, then the earlier check wins', async () => {
    await expectError(get('/convert?from=USD&to=GBP&amount=0&date=2026-04-11'), 400, MSG.positive);
    await expectError(get('/convert?from=USD&to=XYZ&amount=1&date=2026-04-11'), 400, unknownCurrency('XYZ'));
  });

  await t.test('when /rates/{date} and /rates/latest are asked, then they answer as before', async () => {
    const latest = await read(await get('/rates/latest?symbols=GBP'));
    assert.equal(latest.text, JSON.stringify({ base: 'EUR', date: '2026-04-13', rates: { GBP: '0.870580' } }));
    await expectError(get('/rates/2026-04-11'), 404, noDataOn('2026-04-11'));
    assert.deepEqual(errorBody(400, [MSG.date]), (await read(await get('/rates/2026-4-11'))).json);
  });
});
