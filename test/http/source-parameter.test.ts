import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { bankDays } from '../helpers/bank-text-oracle.js';
import { HISTORY_ZIP, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { expectError, expectJson, MSG, noDataInRange, noDataOn, unknownCurrency } from '../helpers/http-expect.js';
import { divide, formatHalfUp, formatHalfUp6, multiply, parseDecimal, subtract, type Rational } from '../helpers/oracle.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * `source=ID` (DECISIONS §15) over HTTP on every endpoint it applies to, with the ECB's history,
 * NBP's tables A and B and the CNB's year enabled as `cnb,ecb,nbp`: validation and its place in
 * the 400 array, "no data" where the source has none, and each answer from that source's own
 * figures (P(A) / P(B), from the files' text through the BigInt oracle), which differ from the
 * blend's, so the test tells the two apart.
 */

const V1 = '/api/v1';
const ORDER = 'cnb,ecb,nbp';
const SOURCE = 'source must be one of: cnb, ecb, nbp';
const PRECISION = 'precision must be an integer from 0 to 12';
const DAY = '2026-03-04';
const ONE: Rational = { num: 1n, den: 1n };

const history = parseHistoryCsv(await historyCsvText());
const banks = bankDays();
const BASES: Record<string, string> = { nbp: 'PLN', cnb: 'CZK' };

/** P(code) of a bank on a day, its base being 1; undefined when it does not quote it. */
function valueOf(bank: 'nbp' | 'cnb', date: string, code: string): Rational | undefined {
  return code === BASES[bank] ? ONE : banks.get(bank)!.get(date)?.get(code);
}

/** Units of `code` per one unit of `base` from one bank alone: P(base) / P(code). */
function bankRate(bank: 'nbp' | 'cnb', date: string, base: string, code: string): Rational {
  const [b, c] = [valueOf(bank, date, base), valueOf(bank, date, code)];
  assert.ok(b && c, `${bank} quotes ${base} and ${code} on ${date}`);
  return divide(b, c);
}

/** Units of `code` per one unit of `base` from the ECB's own figures. */
function ecbRate(date: string, base: string, code: string): Rational {
  const of = (c: string) => (c === 'EUR' ? ONE : parseDecimal(history.get(date)![c]!));
  return divide(of(code), of(base));
}

test('source=ID on every rate endpoint', async (t) => {
  const server = await startTestApp(t, {
    ingest: [HISTORY_ZIP],
    ingestSources: [
      { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) },
      { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpB) },
      { source: 'cnb', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.cnb) },
    ],
    env: { SOURCES: ORDER },
  });
  const get = (path: string) => server.get(V1 + path);

  await t.test('when source is not an enabled id, then 400 names the enabled ids in priority order, after every other rule and before precision', async () => {
    const sources = (await read(await get('/sources'))).json as { id: string }[];
    assert.deepEqual(sources.map(({ id }) => id), ['cnb', 'ecb', 'nbp'], 'the order /sources lists');
    // Known to the service but not enabled, upper-cased, empty, repeated: each is refused.
    for (const query of ['source=boc', 'source=ECB', 'source=', 'source=ecb&source=nbp', 'source=ecb,nbp']) {
      await expectError(get(`/rates/latest?${query}`), 400, [SOURCE], query);
    }
    await expectError(get('/rates/2026-13-01?base=E&symbols=1&source=x&precision=13'), 400, [MSG.date, MSG.base, MSG.symbols, SOURCE, PRECISION]);
    await expectError(get('/rates/2026-03-05..2026-03-04?source=x&precision=x'), 400, [MSG.order, SOURCE, PRECISION]);
    await expectError(get('/fluctuation/x..?base=1&source=nbpp'), 400, [MSG.start, MSG.base, SOURCE]);
    await expectError(get('/convert?from=1&to=2&amount=x&date=2026-02-30&source=ecbb&precision=99'), 400, [MSG.from, MSG.to, MSG.amount, MSG.date, SOURCE, PRECISION]);
    await expectError(get('/convert/bulk?from=1&amount=x&to=&date=x&source=1'), 400, [MSG.from, MSG.amount, MSG.toMin, MSG.date, SOURCE]);
    // The other checks keep their order after the formats: a bad amount, then an unknown currency.
    await expectError(get('/convert?from=USD&to=JPY&amount=0&source=nbp'), 400, 'amount must be a positive number');
    await expectError(get('/rates/latest?base=XXX&source=nbp'), 400, unknownCurrency('XXX'));
  });

  await t.test('when a day is asked of one source, then its rates are that source\'s own crosses, not the blend\'s', async () => {
    const symbols = ['USD', 'JPY', 'GBP', 'PLN', 'CZK'];
    for (const [bank, base] of [['nbp', 'EUR'], ['nbp', 'USD'], ['cnb', 'GBP'], ['cnb', 'CZK']] as const) {
      const rates = Object.fromEntries([...symbols].sort().map((code) => [code, formatHalfUp6(bankRate(bank, DAY, base, code))]));
      const answer = await expectJson(get(`/rates/${DAY}?base=${base}&symbols=${symbols.join(',')}&source=${bank}`), 200, { base, date: DAY, rates }, `${bank} ${base}`);
      // The blend takes the CNB's first (SOURCES=cnb,…): NBP's figures differ from it, the CNB's from the ECB's.
      const other = await read(await get(`/rates/${DAY}?base=${base}&symbols=${symbols.join(',')}${bank === 'nbp' ? '' : '&source=ecb'}`));
      assert.notEqual(answer.text, other.text, `${bank} ${base}: the source's own figures differ from the ${bank === 'nbp' ? 'blend\'s' : 'ECB\'s'}`);
    }
    // source=ecb: the ECB's figures alone, where the blend takes the CNB's first.
    const ecb = Object.fromEntries(['CZK', 'PLN', 'USD'].map((code) => [code, formatHalfUp6(ecbRate(DAY, 'EUR', code))]));
    await expectJson(get(`/rates/${DAY}?symbols=USD,CZK,PLN&source=ecb`), 200, { base: 'EUR', date: DAY, rates: ecb });
    const blended = (await read(await get(`/rates/${DAY}?symbols=USD`))).json as { rates: { USD: string } };
    assert.equal(blended.rates.USD, formatHalfUp6(bankRate('cnb', DAY, 'EUR', 'USD')));
    assert.notEqual(blended.rates.USD, ecb['USD'], 'the CNB\'s USD per EUR differs from the ECB\'s');
    // A code the source does not quote that day is left out, as without source; as the base, no data.
    await expectJson(get(`/rates/${DAY}?symbols=AFN,USD&source=cnb`), 200, { base: 'EUR', date: DAY, rates: { USD: formatHalfUp6(bankRate('cnb', DAY, 'EUR', 'USD')) } });
    await expectError(get(`/rates/${DAY}?base=AFN&source=cnb`), 404, noDataOn(DAY));
    // A day the source did not publish, though the others did.
    assert.ok(history.has('2026-03-06') && banks.get('cnb')!.has('2026-03-06'), 'the ECB and the CNB published on 2026-03-06');
    await expectError(get('/rates/2026-03-06?source=nbp'), 404, noDataOn('2026-03-06'));
  });

  await t.test('when a drop-in path is asked with source, then it answers that source\'s own figures, as JSON numbers', async () => {
    const usd = formatHalfUp6(bankRate('nbp', DAY, 'EUR', 'USD')).replace(/0+$/, '').replace(/\.$/, '');
    const blend = formatHalfUp6(bankRate('cnb', DAY, 'EUR', 'USD')).replace(/0+$/, '').replace(/\.$/, '');
    assert.notEqual(usd, blend, 'NBP\'s USD per EUR differs from the blend\'s (the CNB\'s)');
    const v1 = await read(await server.get(`/v1/${DAY}?symbols=USD&source=nbp`));
    assert.equal(v1.status, 200, v1.text);
    assert.match(v1.text, new RegExp(`"rates":\\{"USD":${usd.replace('.', '\\.')}\\}`));
    const oxr = await read(await server.get(`/api/historical/${DAY}.json?base=EUR&symbols=USD&source=nbp`));
    assert.equal(oxr.status, 200, oxr.text);
    assert.match(oxr.text, new RegExp(`"rates":\\{"USD":${usd.replace('.', '\\.')}\\}`));
    const blended = await read(await server.get(`/v1/${DAY}?symbols=USD`));
    assert.match(blended.text, new RegExp(`"rates":\\{"USD":${blend.replace('.', '\\.')}\\}`));
    await expectJson(server.get(`/v1/${DAY}?source=boe`), 422, { message: SOURCE });
  });

  await t.test('when the latest rates of one source are asked, then its newest day quoting them all is served', async () => {
    const nbpDays = [...banks.get('nbp')!.keys()].sort();
    const newest = nbpDays.at(-1)!;
    assert.equal(newest, '2026-03-05');
    await expectJson(get('/rates/latest?symbols=USD&source=nbp'), 200, { base: 'EUR', date: newest, rates: { USD: formatHalfUp6(bankRate('nbp', newest, 'EUR', 'USD')) } });
    // AFN is in NBP's weekly table B alone: its one day there.
    await expectJson(get('/rates/latest?symbols=AFN&source=nbp'), 200, { base: 'EUR', date: DAY, rates: { AFN: formatHalfUp6(bankRate('nbp', DAY, 'EUR', 'AFN')) } });
    await expectError(get('/rates/latest?symbols=AFN&source=ecb'), 404, MSG.noData);
  });

  await t.test('when a range and a fluctuation are asked of one source, then only its days and figures appear', async () => {
    const days = [...banks.get('nbp')!.keys()].sort();
    const rates = Object.fromEntries(days.map((date) => [date, { JPY: formatHalfUp6(bankRate('nbp', date, 'USD', 'JPY')) }]));
    await expectJson(get('/rates/2026-02-27..2026-03-08?base=USD&symbols=JPY&source=nbp'), 200, { base: 'USD', start_date: '2026-02-27', end_date: '2026-03-08', rates });
    const csv = await read(await server.get(`${V1}/rates/2026-02-27..2026-03-08?base=USD&symbols=JPY&source=nbp`, { headers: { accept: 'text/csv' } }));
    assert.equal(csv.text, ['date,JPY', ...days.map((date) => `${date},${rates[date]!.JPY}`)].join('\r\n') + '\r\n');
    await expectError(get('/rates/2026-03-07..2026-03-08?source=nbp'), 404, noDataInRange('2026-03-07', '2026-03-08'));

    const [first, last] = [days[0]!, days.at(-1)!];
    const start = bankRate('nbp', first, 'EUR', 'USD');
    const end = bankRate('nbp', last, 'EUR', 'USD');
    const change = subtract(end, start);
    await expectJson(get('/fluctuation/2026-02-27..2026-03-08?symbols=USD&source=nbp&precision=8'), 200, {
      base: 'EUR',
      start_date: '2026-02-27',
      end_date: '2026-03-08',
      rates: {
        USD: {
          start_date: first,
          end_date: last,
          start_rate: formatHalfUp(start, 8),
          end_rate: formatHalfUp(end, 8),
          change: formatHalfUp(change, 8),
          change_pct: formatHalfUp(multiply(divide(change, start), parseDecimal('100')), 8),
        },
      },
    });
  });

  await t.test('when converting with one source, then the result is amount × that source\'s exact cross, rounded once', async () => {
    const amount = '1234.567';
    const rate = bankRate('cnb', DAY, 'GBP', 'JPY');
    await expectJson(get(`/convert?from=GBP&to=JPY&amount=${amount}&date=${DAY}&source=cnb`), 200, {
      from: 'GBP', to: 'JPY', amount, result: formatHalfUp6(multiply(parseDecimal(amount), rate)), rate: formatHalfUp6(rate), date: DAY,
    });
    const ecb = await read(await get(`/convert?from=GBP&to=JPY&amount=${amount}&date=${DAY}&source=ecb`));
    assert.equal((ecb.json as { rate: string }).rate, formatHalfUp6(ecbRate(DAY, 'GBP', 'JPY')));
    assert.notEqual(formatHalfUp6(ecbRate(DAY, 'GBP', 'JPY')), formatHalfUp6(rate), 'the ECB\'s cross differs from the CNB\'s');
    await expectJson(get(`/convert/bulk?from=PLN&to=USD,CZK,usd&amount=10&date=${DAY}&source=nbp`), 200, {
      from: 'PLN',
      amount: '10',
      date: DAY,
      conversions: ['USD', 'CZK'].map((to) => {
        const r = bankRate('nbp', DAY, 'PLN', to);
        return { to, result: formatHalfUp6(multiply(parseDecimal('10'), r)), rate: formatHalfUp6(r) };
      }),
    });
    // No date: the latest day of that source quoting both.
    const latest = await expectJson(get('/convert?from=EUR&to=AFN&amount=1&source=nbp'), 200, {
      from: 'EUR', to: 'AFN', amount: '1', result: formatHalfUp6(bankRate('nbp', DAY, 'EUR', 'AFN')), rate: formatHalfUp6(bankRate('nbp', DAY, 'EUR', 'AFN')), date: DAY,
    });
    assert.equal(latest.status, 200);
    await expectError(get('/convert?from=EUR&to=AFN&amount=1&date=2026-03-05&source=nbp'), 404, noDataOn('2026-03-05'));
    await expectError(get('/convert/bulk?from=EUR&to=USD,AFN&amount=1&source=cnb'), 404, MSG.noData);
  });
});
