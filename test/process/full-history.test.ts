import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, parseIngestSummary, runCli, serviceEnv } from '../helpers/cli.js';
import { countRates, expectedRateSet, historyCsvPath, HISTORY_ZIP, latestDateWith, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { convertExact, crossRate } from '../helpers/oracle.js';
import { apiGet, spawnServer, type Answer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/**
 * The real ECB history (1999-01-04 .. 2026-04-13) through the CLI and a spawned server, checked
 * against values computed here from eurofxref-hist.csv with BigInt rationals (test/helpers/oracle.ts),
 * never with the service's own arithmetic.
 */
/** eurofxref-hist.csv, the ZIP's only member, in a temp file. */
const CSV = await historyCsvPath();

const DEFAULT_TRACKED = [
  'EUR', 'USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'ISK', 'NOK', 'TRY', 'AUD',
  'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR',
];
const TRACKED = [...DEFAULT_TRACKED, 'TRL', 'ROL', 'RUB', 'HRK'];

function json(answer: Answer): unknown {
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

function assertSorted(answer: Answer): void {
  const codes = Object.keys((answer.json as { rates: Record<string, string> }).rates);
  assert.deepEqual(codes, [...codes].sort(), 'rates keys in alphabetical order');
}

test('when the full ECB history ZIP is ingested by the CLI, then a server answers conversions and rate sets exactly as the BigInt oracle computes them', async (t) => {
  const history = parseHistoryCsv(readFileSync(CSV, 'utf8'));
  const rateCount = countRates(history);
  const env = serviceEnv(join(tempDir(t, 'currency-rates-full-'), 'rates.db'), { CURRENCIES: TRACKED.join(',') });

  const ingest = await runCli(['ingest', '--file', HISTORY_ZIP], env, { timeoutMs: 60_000 });
  t.diagnostic(`ingest --file eurofxref-hist.zip took ${Math.round(ingest.ms)} ms (whole CLI process)`);
  assert.equal(ingest.code, 0, describeRun(ingest));
  assert.deepEqual(parseIngestSummary(ingest.stdout), { days: history.size, rates: rateCount, added: rateCount, changed: 0 });

  const created = await runCli(['keys', 'create', '--name', 'full-history'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const startedAt = performance.now();
  const server = await spawnServer(t, env, { readyTimeoutMs: 30_000 });
  t.diagnostic(`server answered ${Math.round(performance.now() - startedAt)} ms after spawn (loads ${history.size} days)`);
  const get = (path: string) => apiGet(server.url, path, key);

  await t.test('when the latest EUR rates are asked, then they are the 2026-04-13 row in full', async () => {
    assert.equal(latestDateWith(history, ['EUR']), '2026-04-13');
    const answer = await get('/api/v1/rates/latest');
    assert.deepEqual(json(answer), expectedRateSet(history, '2026-04-13', 'EUR', TRACKED));
    assertSorted(answer);
  });

  await t.test('when USD is converted to JPY, then the latest day 2026-04-13 is used and the result is rounded once', async () => {
    const day = history.get('2026-04-13')!;
    for (const amount of ['1234.56', '0.01', '99999999.999999']) {
      assert.deepEqual(json(await get(`/api/v1/convert?from=USD&to=JPY&amount=${amount}`)), {
        from: 'USD', to: 'JPY', amount, result: convertExact(day, 'USD', 'JPY', amount), rate: crossRate(day, 'USD', 'JPY'), date: '2026-04-13',
      });
    }
  });

  await t.test('when the rates of 2008-10-24 are asked in GBP, then GBP→USD and every other rate match the oracle', async () => {
    const answer = await get('/api/v1/rates/2008-10-24?base=GBP');
    const expected = expectedRateSet(history, '2008-10-24', 'GBP', TRACKED);
    assert.equal(expected.rates.USD, crossRate(history.get('2008-10-24')!, 'GBP', 'USD'));
    assert.deepEqual(json(answer), expected);
    assertSorted(answer);
  });

  await t.test('when TRL is tracked, then a 2001 day in TRL and a TRL conversion on its last day 2004-12-31 match the oracle', async () => {
    const answer = await get('/api/v1/rates/2001-02-22?base=TRL');
    assert.deepEqual(json(answer), expectedRateSet(history, '2001-02-22', 'TRL', TRACKED));
    assert.deepEqual(json(await get('/api/v1/rates/2001-02-22?symbols=TRL,ROL,USD')), expectedRateSet(history, '2001-02-22', 'EUR', TRACKED, ['TRL', 'ROL', 'USD']));
    const last = latestDateWith(history, ['TRL', 'USD']);
    assert.equal(last, '2004-12-31');
    const day = history.get(last!)!;
    assert.deepEqual(json(await get('/api/v1/convert?from=TRL&to=USD&amount=1234567.89')), {
      from: 'TRL', to: 'USD', amount: '1234567.89', result: convertExact(day, 'TRL', 'USD', '1234567.89'), rate: crossRate(day, 'TRL', 'USD'), date: last,
    });
  });

  await t.test('when ISK is asked, then latest is 2026-04-13 and a day inside its 2008-2018 gap has no ISK', async () => {
    assert.deepEqual(json(await get('/api/v1/rates/latest?base=ISK')), expectedRateSet(history, '2026-04-13', 'ISK', TRACKED));
    assert.deepEqual(json(await get('/api/v1/rates/2012-06-01?symbols=ISK,USD')), expectedRateSet(history, '2012-06-01', 'EUR', TRACKED, ['ISK', 'USD']));
    assert.equal(history.get('2012-06-01')!.ISK, undefined);
    const gap = await get('/api/v1/rates/2012-06-01?base=ISK');
    assert.deepEqual({ status: gap.status, json: gap.json }, {
      status: 404, json: { statusCode: 404, message: 'No exchange rate data available for 2012-06-01', error: 'Not Found' },
    });
    assert.deepEqual(json(await get('/api/v1/rates/2008-12-09?symbols=ISK')), expectedRateSet(history, '2008-12-09', 'EUR', TRACKED, ['ISK']));
  });

  await t.test('when RUB is asked for the latest, then its last day 2022-03-01 is used', async () => {
    const last = latestDateWith(history, ['RUB']);
    assert.equal(last, '2022-03-01');
    const day = history.get(last!)!;
    assert.deepEqual(json(await get('/api/v1/rates/latest?symbols=RUB,USD')), expectedRateSet(history, last!, 'EUR', TRACKED, ['RUB', 'USD']));
    assert.deepEqual(json(await get('/api/v1/convert?from=RUB&to=USD&amount=1000')), {
      from: 'RUB', to: 'USD', amount: '1000', result: convertExact(day, 'RUB', 'USD', '1000'), rate: crossRate(day, 'RUB', 'USD'), date: last,
    });
  });

  await t.test('when BGN is asked for the latest, then its last day 2025-12-31 is used (rates and bulk conversion)', async () => {
    const last = latestDateWith(history, ['BGN', 'USD', 'JPY']);
    assert.equal(last, '2025-12-31');
    const day = history.get(last!)!;
    assert.deepEqual(json(await get('/api/v1/rates/latest?base=BGN')), expectedRateSet(history, last!, 'BGN', TRACKED));
    assert.deepEqual(json(await get('/api/v1/convert/bulk?from=BGN&to=USD,JPY,EUR&amount=100')), {
      from: 'BGN', amount: '100', date: last,
      conversions: ['USD', 'JPY', 'EUR'].map((to) => ({ to, result: convertExact(day, 'BGN', to, '100'), rate: crossRate(day, 'BGN', to) })),
    });
  });

  await t.test('when the history CSV is ingested after the ZIP, then it reports 0 new and 0 changed', async () => {
    const again = await runCli(['ingest', '--file', CSV], env, { timeoutMs: 60_000 });
    t.diagnostic(`ingest --file eurofxref-hist.csv (again) took ${Math.round(again.ms)} ms`);
    assert.equal(again.code, 0, describeRun(again));
    assert.deepEqual(parseIngestSummary(again.stdout), { days: history.size, rates: rateCount, added: 0, changed: 0 });
  });
});
