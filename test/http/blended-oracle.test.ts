import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { BANK_BASES, bankDays, firstOf, rateSet } from '../helpers/bank-text-oracle.js';
import { HISTORY_ZIP, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { expectJson } from '../helpers/http-expect.js';
import { divide, formatHalfUp6, multiply, parseDecimal, type Rational } from '../helpers/oracle.js';
import { randomAmount } from '../helpers/random-amounts.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * Every recorded source at once (DECISIONS §9), in two priority orders: random days of 2026,
 * bases, symbol sets and dated conversions over HTTP, each against P(EUR)/P(X) of the first
 * source that has both, computed from the files' text by the BigInt oracle, byte for byte.
 */

const CASES = 40;
const ONE: Rational = { num: 1n, den: 1n };
const history = parseHistoryCsv(await historyCsvText());
const banks = bankDays();
const INGESTED = Object.values(PROVIDER_FILES).map((file) => ({ source: file.slice(0, 3), file: join(PROVIDER_FIXTURES, file) }));
/** Every day some bank has, and the ECB's days of the same months. */
const DATES = [...new Set([...[...banks.values()].flatMap((days) => [...days.keys()]), ...[...history.keys()].filter((date) => date >= '2026-01-01')])].sort();

/** A source's rate of `code` per 1 EUR on `date`: P(EUR) / P(code), or the ECB's own figure. */
function perEuro(source: string, date: string, code: string): Rational | undefined {
  if (source === 'ecb') {
    const day = history.get(date);
    if (!day) return undefined;
    return code === 'EUR' ? ONE : day[code] === undefined ? undefined : parseDecimal(day[code]);
  }
  const values = banks.get(source)!.get(date);
  const of = (c: string) => (c === BANK_BASES[source] ? ONE : values?.get(c));
  const [eur, unit] = [of('EUR'), of(code)];
  return values && eur && unit ? divide(eur, unit) : undefined;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

for (const [seed, order] of [[1, ['ecb', 'nbp', 'cnb', 'boc', 'cbr', 'nbu']], [2, ['nbu', 'boc', 'cbr', 'cnb', 'ecb', 'nbp']]] as const) {
  test(`when every source is enabled as ${order.join(',')}, then random rate sets and dated conversions equal the first source's exact rates`, async (t) => {
    const server = await startTestApp(t, { ingest: [HISTORY_ZIP], ingestSources: INGESTED, env: { SOURCES: order.join(',') } });
    const tracked = ((await read(await server.get('/api/v1/currencies'))).json as { code: string }[]).map((currency) => currency.code);
    const random = seededRandom(seed);
    const servedBy = (date: string, code: string) => order.find((source) => perEuro(source, date, code) !== undefined);
    const sources = new Set<string>();
    for (let i = 0; i < CASES; i++) {
      // The first cases each on a day some code of which comes from the next source in order, so
      // that every source's values are served and checked, whatever its priority.
      const date = pick(random, i < order.length ? DATES.filter((day) => tracked.some((code) => servedBy(day, code) === order[i])) : DATES);
      const rateOf = firstOf(...order.map((source) => (code: string) => perEuro(source, date, code)));
      const quoted = tracked.filter((code) => rateOf(code) !== undefined);
      for (const code of quoted) sources.add(servedBy(date, code)!);
      const base = pick(random, quoted);
      const symbols = random() < 0.2 ? undefined : Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(random, tracked));
      const query = `base=${base}${symbols ? `&symbols=${symbols.join(',')}` : ''}`;
      await expectJson(server.get(`/api/v1/rates/${date}?${query}`), 200, rateSet(rateOf, date, base, symbols ? [...new Set(symbols)] : tracked), `${date} ${query}`);

      const [from, to] = [pick(random, quoted), pick(random, quoted)];
      const amount = randomAmount(random, 12);
      await expectJson(server.get(`/api/v1/convert?from=${from}&to=${to}&amount=${encodeURIComponent(amount)}&date=${date}`), 200, {
        from, to, amount,
        result: formatHalfUp6(divide(multiply(parseDecimal(amount), rateOf(to)!), rateOf(from)!)),
        rate: formatHalfUp6(divide(rateOf(to)!, rateOf(from)!)),
        date,
      }, `${date} ${amount} ${from}→${to}`);
    }
    // The cases drew on every source, so each one's values were served and checked.
    assert.deepEqual([...sources].sort(), [...order].sort());
  });
}
