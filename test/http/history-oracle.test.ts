import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError, expectJson, noDataInRange, noDataOn } from '../helpers/http-expect.js';
import { hasRate, historyCsvText, HISTORY_ZIP, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { convertExact, crossRate } from '../helpers/oracle.js';
import { expectedFluctuation, expectedRange } from '../helpers/range-oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { startTestApp } from '../helpers/test-server.js';

/**
 * Ranges, fluctuation and dated conversions over the real ECB history (1999-01-04 .. 2026-04-13),
 * for random ranges, bases and symbol sets, against the BigInt oracle (test/helpers/range-oracle.ts),
 * byte for byte. The tracked set adds currencies the ECB stopped quoting (CYP, HRK, RUB), so
 * ranges cross days on which a base or a symbol has no rate.
 */

const TRACKED = [
  'EUR', 'USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'RON', 'SEK', 'CHF', 'ISK', 'NOK', 'TRY', 'AUD',
  'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR',
  'CYP', 'HRK', 'RUB',
];
const CASES = 40;

const history = parseHistoryCsv(await historyCsvText());
const DATES = [...history.keys()].sort();

/** A calendar day (valid, maybe without rates) between 1998-12-01 and 2026-05-31. */
function randomDay(random: () => number): string {
  const from = Date.UTC(1998, 11, 1);
  const to = Date.UTC(2026, 4, 31);
  return new Date(from + Math.floor(random() * ((to - from) / 86_400_000 + 1)) * 86_400_000).toISOString().slice(0, 10);
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const anyCase = (random: () => number, code: string) => (random() < 0.3 ? code.toLowerCase() : code);

/** A range as a user asks it: short, about a year, long, open-ended, or the whole history. */
function randomRange(random: () => number): { start: string; end: string | undefined } {
  const kind = random();
  const start = randomDay(random);
  if (kind < 0.3) return { start, end: addDays(start, Math.floor(random() * 21)) };
  if (kind < 0.55) return { start, end: addDays(start, 365) };
  if (kind < 0.8) {
    const other = randomDay(random);
    return other < start ? { start: other, end: start } : { start, end: other };
  }
  if (kind < 0.9) return { start, end: undefined };
  return { start: '1999-01-04', end: random() < 0.5 ? undefined : '2026-04-13' };
}

/** No symbols (every tracked code), or 1–6 of them in any order and case, a repeat now and then. */
function randomSymbols(random: () => number): string[] | undefined {
  if (random() < 0.4) return undefined;
  const symbols = Array.from({ length: 1 + Math.floor(random() * 6) }, () => anyCase(random, pick(random, TRACKED)));
  if (random() < 0.2) symbols.push(symbols[0]!);
  return symbols;
}

/** The query string; an EUR base is left implicit half the time. */
function query(random: () => number, base: string, symbols: string[] | undefined): string {
  const parts = [...(base === 'EUR' && random() < 0.5 ? [] : [`base=${base}`]), ...(symbols ? [`symbols=${symbols.join(',')}`] : [])];
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

test('ranges, fluctuation and dated conversions over the whole ECB history match the BigInt oracle', async (t) => {
  const server = await startTestApp(t, { ingest: [HISTORY_ZIP], env: { CURRENCIES: TRACKED.join(',') } });
  const get = (path: string) => server.get(`/api/v1${path}`);

  /** CASES random questions to `endpoint` (rates or fluctuation), each answer compared with the oracle's. */
  async function againstOracle(endpoint: 'rates' | 'fluctuation', seed: number, oracle: typeof expectedRange | typeof expectedFluctuation) {
    const random = seededRandom(seed);
    let answered = 0;
    for (let i = 0; i < CASES; i++) {
      const { start, end } = randomRange(random);
      const base = random() < 0.4 ? 'EUR' : pick(random, TRACKED);
      const symbols = randomSymbols(random);
      const path = `/${endpoint}/${start}..${end ?? ''}${query(random, anyCase(random, base), symbols)}`;
      const expected = oracle(history, start, end, base, TRACKED, symbols);
      if (expected === undefined) await expectError(get(path), 404, noDataInRange(start, end), path);
      else {
        await expectJson(get(path), 200, expected, path);
        answered++;
      }
    }
    assert.ok(answered >= CASES / 2, `most ${endpoint} answers hold days (${answered} of ${CASES})`);
  }

  await t.test(`when ${CASES} random ranges are asked in random bases and symbols, then every answer is the oracle's, byte for byte`, () =>
    againstOracle('rates', 20261126, expectedRange),
  );

  await t.test(`when ${CASES} random fluctuations are asked, then every move is the oracle's, from the exact rates`, () =>
    againstOracle('fluctuation', 112620261, expectedFluctuation),
  );

  await t.test(`when ${CASES} conversions name a random past day, then each uses that day exactly, or is a 404 when it lacks a rate`, async () => {
    const random = seededRandom(26112026);
    let converted = 0;
    for (let i = 0; i < CASES; i++) {
      // Mostly days with rates, some without (weekends, holidays, days before 1999).
      const date = random() < 0.8 ? pick(random, DATES) : randomDay(random);
      const from = pick(random, TRACKED);
      const targets = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, TRACKED));
      const amount = `${1 + Math.floor(random() * 1_000_000)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
      const day = history.get(date);
      const to = targets[0]!;
      const single = `/convert?from=${from}&to=${to}&amount=${amount}&date=${date}`;
      if (day !== undefined && hasRate(day, from) && hasRate(day, to)) {
        const expected = { from, to, amount, result: convertExact(day, from, to, amount), rate: crossRate(day, from, to), date };
        await expectJson(get(single), 200, expected, single);
      } else await expectError(get(single), 404, noDataOn(date), single);
      const bulk = `/convert/bulk?from=${from}&amount=${amount}&to=${targets.join(',')}&date=${date}`;
      if (day !== undefined && [from, ...targets].every((code) => hasRate(day, code))) {
        const conversions = [...new Set(targets)].map((code) => ({ to: code, result: convertExact(day, from, code, amount), rate: crossRate(day, from, code) }));
        await expectJson(get(bulk), 200, { from, amount, date, conversions }, bulk);
        converted++;
      } else await expectError(get(bulk), 404, noDataOn(date), bulk);
    }
    assert.ok(converted >= CASES / 2, `most dated conversions hold rates (${converted} of ${CASES})`);
  });
});
