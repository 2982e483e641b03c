import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { RateRow } from '../../../src/domain/snapshot.js';
import type { RatesStore } from '../../../src/storage/ports.js';

export interface RatesFixture {
  rates: RatesStore;
  close(): Promise<void>;
}

const row = (date: string, currency: string, rate: string): RateRow => ({ date, currency, rate });

/** Rows in a fixed order, so stores that return them in different orders compare equal. */
export function sortRows(rows: readonly RateRow[]): RateRow[] {
  return [...rows].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0,
  );
}

/** `days` consecutive days from 2000-01-03, each with `currencies` synthetic codes and distinct rates. */
export function generateRows(days: number, currencies: number, salt = 0): RateRow[] {
  const rows: RateRow[] = [];
  const start = Date.UTC(2000, 0, 3);
  for (let d = 0; d < days; d++) {
    const date = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
    for (let c = 0; c < currencies; c++) {
      const currency = 'A' + String.fromCharCode(65 + Math.floor(c / 26)) + String.fromCharCode(65 + (c % 26));
      rows.push(row(date, currency, `${1 + c}.${String((d * 7919 + c * 104_729 + salt) % 100_000).padStart(5, '0')}`));
    }
  }
  return rows;
}

const DAY1 = [row('2026-11-19', 'USD', '1.0567'), row('2026-11-19', 'JPY', '163.42'), row('2026-11-19', 'GBP', '0.83410')];
const DAY2 = [row('2026-11-20', 'USD', '1.0600'), row('2026-11-20', 'JPY', '164.05'), row('2026-11-20', 'GBP', '0.83300')];

/** The RatesStore port's behaviour, run against every adapter. `open` gives a fresh, empty store. */
export function ratesStoreContract(name: string, open: (t: TestContext) => Promise<RatesFixture>): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture.rates;
    };

    test('when the store is new, then its version is 0 and it holds no rows', async (t) => {
      const rates = await setup(t);
      assert.equal(await rates.version(), 0);
      assert.deepEqual(await rates.rowsSince(0), { rows: [], version: 0 });
    });

    test('when rows are merged, then the report counts days, rates and additions, and the version moves', async (t) => {
      const rates = await setup(t);
      assert.deepEqual(await rates.merge([...DAY1, ...DAY2]), { days: 2, rates: 6, added: 6, changed: 0, version: 1 });
      assert.equal(await rates.version(), 1);
      const since = await rates.rowsSince(0);
      assert.equal(since.version, 1);
      assert.deepEqual(sortRows(since.rows), sortRows([...DAY1, ...DAY2]));
    });

    test('when the same rows are merged again, then nothing changes and the version stays', async (t) => {
      const rates = await setup(t);
      await rates.merge([...DAY1, ...DAY2]);
      assert.deepEqual(await rates.merge([...DAY2, ...DAY1]), { days: 2, rates: 6, added: 0, changed: 0, version: 1 });
      assert.equal(await rates.version(), 1);
      assert.deepEqual(await rates.rowsSince(1), { rows: [], version: 1 });
    });

    test('when nothing is merged, then the report is empty and the version stays', async (t) => {
      const rates = await setup(t);
      await rates.merge(DAY1);
      assert.deepEqual(await rates.merge([]), { days: 0, rates: 0, added: 0, changed: 0, version: 1 });
    });

    test('when a stored value is corrected, then it counts as changed and is the only row after the old version', async (t) => {
      const rates = await setup(t);
      await rates.merge([...DAY1, ...DAY2]);
      const corrected = row('2026-11-19', 'USD', '1.0568');
      assert.deepEqual(await rates.merge([...DAY1.slice(1), corrected, ...DAY2]), {
        days: 2, rates: 6, added: 0, changed: 1, version: 2,
      });
      assert.deepEqual(await rates.rowsSince(1), { rows: [corrected], version: 2 });
    });

    test('when a merge adds and corrects at once, then both are counted', async (t) => {
      const rates = await setup(t);
      await rates.merge(DAY1);
      const report = await rates.merge([row('2026-11-19', 'GBP', '0.8341'), row('2026-11-19', 'CHF', '0.9312'), ...DAY2]);
      assert.deepEqual(report, { days: 2, rates: 5, added: 4, changed: 1, version: 2 });
    });

    test('when a day is merged without one of its currencies, then the stored value of that currency stays', async (t) => {
      const rates = await setup(t);
      await rates.merge(DAY1);
      assert.deepEqual(await rates.merge([row('2026-11-19', 'USD', '1.0567')]), {
        days: 1, rates: 1, added: 0, changed: 0, version: 1,
      });
      await rates.merge([row('2026-11-19', 'USD', '1.0570')]);
      assert.deepEqual(sortRows((await rates.rowsSince(0)).rows), sortRows([row('2026-11-19', 'USD', '1.0570'), ...DAY1.slice(1)]));
    });

    test('when rates are stored, then they come back as the exact strings written', async (t) => {
      const rates = await setup(t);
      const exact = [
        row('2026-11-19', 'IDR', '17622.21'), row('2026-11-19', 'ISK', '146.10'), row('2026-11-19', 'XAA', '0.000012345'),
        row('2026-11-19', 'XAB', '12345678901234567890.123456789'), row('2026-11-19', 'XAC', '1'),
      ];
      await rates.merge(exact);
      assert.deepEqual(sortRows((await rates.rowsSince(0)).rows), sortRows(exact));
      // '146.1' and '146.10' are different strings: a correction, not a no-op.
      assert.equal((await rates.merge([row('2026-11-19', 'ISK', '146.1')])).changed, 1);
    });

    test('when several merges happened, then rowsSince(v) returns exactly the rows written after v', async (t) => {
      const rates = await setup(t);
      const first = await rates.merge(DAY1);
      const second = await rates.merge(DAY2);
      const third = await rates.merge([row('2026-11-19', 'JPY', '163.50'), row('2026-11-21', 'USD', '1.0610')]);
      assert.deepEqual([first.version, second.version, third.version], [1, 2, 3]);
      assert.deepEqual(sortRows((await rates.rowsSince(0)).rows).length, 7);
      const since1 = await rates.rowsSince(1);
      assert.equal(since1.version, 3);
      assert.deepEqual(sortRows(since1.rows), sortRows([...DAY2, row('2026-11-19', 'JPY', '163.50'), row('2026-11-21', 'USD', '1.0610')]));
      assert.deepEqual(sortRows((await rates.rowsSince(2)).rows), sortRows([row('2026-11-19', 'JPY', '163.50'), row('2026-11-21', 'USD', '1.0610')]));
      assert.deepEqual(await rates.rowsSince(3), { rows: [], version: 3 });
    });

    test('when one merge holds two different values for one cell, then the last one is stored, and counted once', async (t) => {
      const rates = await setup(t);
      await rates.merge([row('2026-11-19', 'USD', '1.0500'), row('2026-11-19', 'USD', '1.0567')]);
      assert.deepEqual((await rates.rowsSince(0)).rows, [row('2026-11-19', 'USD', '1.0567')]);
      // Against a stored value: the last equal to it changes nothing; two others count one change.
      assert.deepEqual(await rates.merge([row('2026-11-19', 'USD', '1.0600'), row('2026-11-19', 'USD', '1.0567')]), { days: 1, rates: 2, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await rates.merge([row('2026-11-19', 'USD', '1.0600'), row('2026-11-19', 'USD', '1.0700')]), { days: 1, rates: 2, added: 0, changed: 1, version: 2 });
      assert.deepEqual((await rates.rowsSince(0)).rows, [row('2026-11-19', 'USD', '1.0700')]);
    });

    test('when a merge fails part way, then none of its rows land and the version stays', async (t) => {
      const rates = await setup(t);
      await rates.merge(DAY1);
      const rows = generateRows(1_000, 25);
      // A row the schema refuses (rate NOT NULL), placed last, after every other row was staged.
      rows.push({ date: '2026-11-19', currency: 'USD', rate: null as unknown as string });
      await assert.rejects(rates.merge(rows));
      assert.equal(await rates.version(), 1);
      assert.deepEqual(sortRows((await rates.rowsSince(0)).rows), sortRows(DAY1));
    });

    test('when two merges run at once, then each gets its own version and both land', async (t) => {
      const rates = await setup(t);
      const reports = await Promise.all([rates.merge(DAY1), rates.merge(DAY2)]);
      assert.deepEqual(reports.map((report) => report.version).sort(), [1, 2]);
      assert.ok(reports.every((report) => report.added === 3 && report.changed === 0));
      assert.deepEqual(sortRows((await rates.rowsSince(0)).rows), sortRows([...DAY1, ...DAY2]));
    });

    test('when 50,000 rows are merged, then all land, and a re-merge with corrections writes only those', async (t) => {
      const rates = await setup(t);
      const rows = generateRows(2_000, 25);
      assert.deepEqual(await rates.merge(rows), { days: 2_000, rates: 50_000, added: 50_000, changed: 0, version: 1 });
      const stored = await rates.rowsSince(0);
      assert.equal(stored.rows.length, 50_000);
      assert.deepEqual(sortRows(stored.rows), sortRows(rows));
      const corrected = rows.map((r, i) => (i % 5_000 === 0 ? { ...r, rate: r.rate + '1' } : r));
      assert.deepEqual(await rates.merge(corrected), { days: 2_000, rates: 50_000, added: 0, changed: 10, version: 2 });
      assert.deepEqual(sortRows((await rates.rowsSince(1)).rows), sortRows(corrected.filter((_, i) => i % 5_000 === 0)));
    });

    test('when days are merged and corrected, then daysSince gives every touched day whole, encoded, and only those', async (t) => {
      const rates = await setup(t);
      const decode = (encoded: string) => Object.fromEntries(encoded.split(';').map((pair) => pair.split('=')));
      const days = (since: { days: { date: string; rates: string }[] }) =>
        Object.fromEntries(since.days.map((day) => [day.date, decode(day.rates)]));
      assert.deepEqual(await rates.daysSince(0), { days: [], version: 0 });
      await rates.merge([...DAY1, ...DAY2]);
      assert.deepEqual(days(await rates.daysSince(0)), {
        '2026-11-19': { USD: '1.0567', JPY: '163.42', GBP: '0.83410' },
        '2026-11-20': { USD: '1.0600', JPY: '164.05', GBP: '0.83300' },
      });
      // A correction of one value of day 2, and a file that omits GBP: day 2 comes back whole.
      await rates.merge([row('2026-11-20', 'USD', '1.0601'), row('2026-11-20', 'JPY', '164.05')]);
      const since = await rates.daysSince(1);
      assert.equal(since.version, 2);
      assert.deepEqual(days(since), { '2026-11-20': { USD: '1.0601', JPY: '164.05', GBP: '0.83300' } });
      assert.deepEqual(await rates.daysSince(2), { days: [], version: 2 });
    });
  });
}
