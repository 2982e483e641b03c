import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cbrDate, cbrValue, firstOf, nbpValue, perEuroFrom, rateSet } from '../helpers/bank-text-oracle.js';
import { HISTORY_ZIP, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { expectJson } from '../helpers/http-expect.js';
import { divide, formatHalfUp6, multiply, parseDecimal, subtract, type Rational } from '../helpers/oracle.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES, providerText } from '../helpers/provider-fixtures.js';
import { ManualClock, read, startTestApp } from '../helpers/test-server.js';

/**
 * Rates served from several sources (DECISIONS §9), over HTTP: the rate of X per 1 EUR on day D is
 * P(EUR) / P(X) of the first source in SOURCES order that has both, exact, and every answer is
 * computed from it as from the ECB's figures. Expected values come from the files' text
 * (helpers/bank-text-oracle.ts) and the BigInt oracle, nothing from src/.
 */

const V1 = '/api/v1';
const history = parseHistoryCsv(await historyCsvText());
const NBP_FILES = [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB].map((file) => ({ source: 'nbp', file: join(PROVIDER_FIXTURES, file) }));
const CBR_FILE = { source: 'cbr', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.cbr) };
const ECB_2025 = 'EUR USD JPY BGN CZK DKK GBP HUF PLN RON SEK CHF ISK NOK TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR'.split(' ');
const ONE: Rational = { num: 1n, den: 1n };

const ecbOn = (date: string) => (code: string) => {
  if (!history.has(date)) return undefined;
  if (code === 'EUR') return ONE;
  const text = history.get(date)?.[code];
  return text === undefined ? undefined : parseDecimal(text);
};
const nbpOn = (date: string) => (code: string) =>
  nbpValue(date, 'EUR') && (code === 'PLN' || nbpValue(date, code)) ? perEuroFrom((c) => nbpValue(date, c), 'PLN', code) : undefined;
const cbr = (code: string) => (code === 'RUB' || cbrValue(code) ? perEuroFrom(cbrValue, 'RUB', code) : undefined);

test('when the ECB and NBP are enabled in that order, then each rate on 2026-03-04 is the first source\'s P(EUR)/P(X), exactly', async (t) => {
  const server = await startTestApp(t, { ingest: [HISTORY_ZIP], ingestSources: NBP_FILES, env: { SOURCES: 'ecb,nbp' } });
  const date = '2026-03-04';
  const rateOf = firstOf(ecbOn(date), nbpOn(date));
  // The ECB publishes USD and PLN that day; AFN is NBP table B's, over EUR from table A; XDR table A's.
  assert.ok(history.get(date)?.USD && !history.get(date)?.AFN && nbpValue(date, 'AFN') && nbpValue(date, 'XDR'));
  for (const base of ['EUR', 'AFN', 'USD', 'PLN', 'XDR']) {
    await expectJson(server.get(`${V1}/rates/${date}?base=${base}&symbols=AFN,USD,PLN,XDR,JPY`), 200, rateSet(rateOf, date, base, ['AFN', 'USD', 'PLN', 'XDR', 'JPY']), base);
  }
  assert.equal(
    (await read(await server.get(`${V1}/rates/${date}?symbols=AFN,USD`))).text,
    `{"base":"EUR","date":"${date}","rates":{"AFN":"${formatHalfUp6(rateOf('AFN')!)}","USD":"1.164900"}}`,
  );

  // The whole rate set: every tracked code either source has that day.
  const listed = (await read(await server.get(`${V1}/currencies`))).json as { code: string }[];
  const whole = await read(await server.get(`${V1}/rates/${date}`));
  assert.deepEqual(whole.json, rateSet(rateOf, date, 'EUR', listed.map((currency) => currency.code)));
  assert.equal(Object.keys((whole.json as { rates: object }).rates).length, 1 + 29 + 119, 'EUR, the ECB\'s 29 and 119 more of NBP\'s');

  // Conversions across sources: amount × rate(to) / rate(from), exact until one rounding.
  const amount = '98765.4321';
  const convert = (from: string, to: string) => formatHalfUp6(divide(multiply(parseDecimal(amount), rateOf(to)!), rateOf(from)!));
  const cross = (from: string, to: string) => formatHalfUp6(divide(rateOf(to)!, rateOf(from)!));
  await expectJson(server.get(`${V1}/convert?from=AFN&to=USD&amount=${amount}&date=${date}`), 200, {
    from: 'AFN', to: 'USD', amount, result: convert('AFN', 'USD'), rate: cross('AFN', 'USD'), date,
  });
  await expectJson(server.get(`${V1}/convert/bulk?from=XDR&to=AFN,JPY,PLN,EUR&amount=${amount}&date=${date}`), 200, {
    from: 'XDR', amount, date,
    conversions: ['AFN', 'JPY', 'PLN', 'EUR'].map((to) => ({ to, result: convert('XDR', to), rate: cross('XDR', to) })),
  });
});

test('when a range and a fluctuation span days of two sources, then each day and each move comes from that day\'s first source', async (t) => {
  const server = await startTestApp(t, { ingest: [HISTORY_ZIP], ingestSources: NBP_FILES, env: { SOURCES: 'ecb,nbp' } });
  const days = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
  const symbols = ['AFN', 'USD', 'XDR'];
  const answer = await read(await server.get(`${V1}/rates/2026-03-01..2026-03-05?base=XDR&symbols=${symbols.join(',')}`));
  assert.equal(answer.status, 200, answer.text);
  const rates = Object.fromEntries(days.map((date) => [date, rateSet(firstOf(ecbOn(date), nbpOn(date)), date, 'XDR', symbols).rates]));
  assert.deepEqual(answer.json, { base: 'XDR', start_date: '2026-03-01', end_date: '2026-03-05', rates });
  // AFN only on table B's Wednesday, the others every day.
  assert.deepEqual(Object.keys(rates).filter((date) => rates[date]!.AFN !== undefined), ['2026-03-04']);

  const move = (code: string, first: string, last: string) => {
    const [start, end] = [first, last].map((date) => { const of = firstOf(ecbOn(date), nbpOn(date)); return divide(of(code)!, of('USD')!); }) as [Rational, Rational];
    const change = subtract(end, start);
    return {
      start_date: first, end_date: last, start_rate: formatHalfUp6(start), end_rate: formatHalfUp6(end),
      change: formatHalfUp6(change), change_pct: formatHalfUp6(multiply(divide(change, start), { num: 100n, den: 1n })),
    };
  };
  await expectJson(server.get(`${V1}/fluctuation/2026-03-01..2026-03-05?base=USD&symbols=XDR,AFN`), 200, {
    base: 'USD', start_date: '2026-03-01', end_date: '2026-03-05',
    rates: { AFN: move('AFN', '2026-03-04', '2026-03-04'), XDR: move('XDR', '2026-03-02', '2026-03-05') },
  });
});

test('when NBP comes before the ECB, then NBP\'s figures are served on the days it has, the ECB\'s on the others', async (t) => {
  const server = await startTestApp(t, { ingest: [HISTORY_ZIP], ingestSources: NBP_FILES, env: { SOURCES: 'nbp,ecb', CURRENCIES: 'EUR,USD,AFN,JPY' } });
  for (const date of ['2026-03-04', '2026-03-06']) {
    const rateOf = firstOf(nbpOn(date), ecbOn(date));
    await expectJson(server.get(`${V1}/rates/${date}?base=JPY`), 200, rateSet(rateOf, date, 'JPY', ['EUR', 'USD', 'AFN', 'JPY']), date);
  }
  assert.notEqual(formatHalfUp6(nbpOn('2026-03-04')('USD')!), '1.164900', 'NBP\'s USD differs from the ECB\'s that day');
  // CURRENCIES still decides what is served.
  assert.deepEqual(((await read(await server.get(`${V1}/currencies`))).json as { code: string }[]).map((c) => c.code), ['AFN', 'EUR', 'JPY', 'USD']);
});

test('when the Bank of Russia publishes the next day in advance, then it is served by date at once and by "latest" once that day comes', async (t) => {
  const date = cbrDate();
  assert.equal(date, '2026-04-25');
  const clock = new ManualClock(Date.UTC(2026, 3, 24, 18, 0));
  const server = await startTestApp(t, { ingest: ['hist.csv'], ingestSources: [CBR_FILE], env: { SOURCES: 'ecb,cbr', REFRESH_INTERVAL_MS: '100' }, clock });
  // A Saturday: the ECB has no day, so every rate is the Bank of Russia's, DZD's nominal of 100 divided out.
  await expectJson(server.get(`${V1}/rates/${date}?symbols=RUB,USD,DZD,GBP`), 200, rateSet(cbr, date, 'EUR', ['RUB', 'USD', 'DZD', 'GBP']));
  assert.equal(formatHalfUp6(cbr('RUB')!), formatHalfUp6(cbrValue('EUR')!), 'RUB per 1 EUR is P(EUR) itself');
  await expectJson(server.get(`${V1}/rates/latest?symbols=USD,GBP`), 200, { base: 'EUR', date: '2026-04-13', rates: { GBP: '0.870580', USD: '1.168400' } });
  await expectJson(server.get(`${V1}/convert?from=USD&to=GBP&amount=10`), 200, { from: 'USD', to: 'GBP', amount: '10', result: '7.451044', rate: '0.745104', date: '2026-04-13' });

  clock.current = Date.UTC(2026, 3, 25, 0, 0, 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await expectJson(server.get(`${V1}/rates/latest?symbols=RUB,USD`), 200, rateSet(cbr, date, 'EUR', ['RUB', 'USD']));
  const latest = await read(await server.get(`${V1}/convert?from=USD&to=GBP&amount=10`));
  assert.equal((latest.json as { date: string }).date, date);
});

test('when all six sources are enabled and CURRENCIES is not set, then /currencies lists every code any of them publishes', async (t) => {
  const server = await startTestApp(t, { env: { SOURCES: 'ecb,nbp,cnb,boc,cbr,nbu' } });
  // The codes as each file writes them (NBP JSON, CNB JSON, BoC series names, CBR XML, NBU JSON).
  const fileCodes = [
    ...[PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB].flatMap((file) => [...providerText(file).matchAll(/"code":"([A-Z]{3})"/g)].map((m) => m[1]!)),
    ...[...providerText(PROVIDER_FILES.cnb).matchAll(/"currencyCode":"([A-Z]{3})"/g)].map((m) => m[1]!),
    ...[...providerText(PROVIDER_FILES.boc).matchAll(/"FX([A-Z]{3})CAD"/g)].map((m) => m[1]!),
    ...[...providerText(PROVIDER_FILES.cbr).matchAll(/<CharCode>([A-Z]{3})<\/CharCode>/g)].map((m) => m[1]!),
    ...[...providerText(PROVIDER_FILES.nbu).matchAll(/"cc":"([A-Z]{3})"/g)].map((m) => m[1]!),
  ];
  const expected = [...new Set([...ECB_2025, 'PLN', 'CZK', 'CAD', 'RUB', 'UAH', ...fileCodes])].sort();
  const listed = (await read(await server.get(`${V1}/currencies`))).json as { code: string; name: string; symbol: string }[];
  assert.deepEqual(listed.map((currency) => currency.code), expected);
  assert.ok(listed.length >= 150, `${listed.length} codes`);
  assert.deepEqual(listed.find((currency) => currency.code === 'XDR'), { code: 'XDR', name: 'Special Drawing Rights', symbol: 'XDR' });
});
