import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { decodeDayRates } from '../../helpers/decoded-day.js';
import type { SourceValue, SourceValueRow } from '../../../src/domain/source-values.js';
import type { RatesStore } from '../../../src/storage/ports.js';

export interface RatesFixture {
  rates: RatesStore;
  close(): Promise<void>;
}

const value = (date: string, currency: string, text: string): SourceValue => ({ date, currency, value: text });
const stored = (source: string, values: readonly SourceValue[]): SourceValueRow[] => values.map((v) => ({ source, ...v }));

/** Rows in (source, day, currency) order, the order rowsSince promises. */
export function sorted(rows: readonly SourceValueRow[]): SourceValueRow[] {
  const key = (row: SourceValueRow) => `${row.source}\u0000${row.date}\u0000${row.currency}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** `days` consecutive days from 2000-01-03, each with `currencies` synthetic codes and distinct values. */
export function generateValues(days: number, currencies: number, salt = 0): SourceValue[] {
  const values: SourceValue[] = [];
  const start = Date.UTC(2000, 0, 3);
  for (let d = 0; d < days; d++) {
    const date = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
    for (let c = 0; c < currencies; c++) {
      const currency = 'A' + String.fromCharCode(65 + Math.floor(c / 26)) + String.fromCharCode(65 + (c % 26));
      values.push(value(date, currency, `${1 + c}.${String((d * 7919 + c * 104_729 + salt) % 100_000).padStart(5, '0')}`));
    }
  }
  return values;
}

// ECB days (units per 1 EUR), an NBP table A day and a CBR day (P, per one unit), as the adapters store them.
const DAY1 = [value('2026-11-19', 'USD', '1.0567'), value('2026-11-19', 'JPY', '163.42'), value('2026-11-19', 'GBP', '0.83410')];
const DAY2 = [value('2026-11-20', 'USD', '1.0600'), value('2026-11-20', 'JPY', '164.05'), value('2026-11-20', 'GBP', '0.83300')];
const NBP = [value('2026-03-02', 'EUR', '4.2304'), value('2026-03-02', 'USD', '3.6056'), value('2026-03-02', 'HUF', '0.011155')];
const CBR = [value('2026-03-02', 'EUR', '88.2826'), value('2026-03-02', 'IRR', '0.0000539256')];

/** The RatesStore port's behaviour, run against every adapter. `open` gives a fresh, empty store. */
export function ratesStoreContract(name: string, open: (t: TestContext) => Promise<RatesFixture>): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture.rates;
    };

    test('when the store is new, then its version is 0 and it holds no values, days or sources', async (t) => {
      const rates = await setup(t);
      assert.equal(await rates.version(), 0);
      assert.deepEqual(await rates.rowsSince(0), { rows: [], version: 0 });
      assert.deepEqual(await rates.daysSince(0), { days: [], version: 0 });
      assert.equal(await rates.lastDay('ecb'), null);
    });

    test('when values are merged, then the report counts days, rates and additions, and the version moves', async (t) => {
      const rates = await setup(t);
      assert.deepEqual(await rates.merge('ecb', [...DAY1, ...DAY2]), { days: 2, rates: 6, added: 6, changed: 0, version: 1 });
      assert.equal(await rates.version(), 1);
      assert.deepEqual(await rates.rowsSince(0), { rows: sorted(stored('ecb', [...DAY1, ...DAY2])), version: 1 });
    });

    test('when several sources are merged, then each value comes back exactly, with its source, in source, day, currency order', async (t) => {
      const rates = await setup(t);
      assert.deepEqual(await rates.merge('nbp', NBP), { days: 1, rates: 3, added: 3, changed: 0, version: 1 });
      assert.deepEqual(await rates.merge('cbr', CBR), { days: 1, rates: 2, added: 2, changed: 0, version: 2 });
      assert.deepEqual(await rates.merge('ecb', DAY1), { days: 1, rates: 3, added: 3, changed: 0, version: 3 });
      assert.deepEqual(await rates.rowsSince(0), { rows: sorted([...stored('nbp', NBP), ...stored('cbr', CBR), ...stored('ecb', DAY1)]), version: 3 });
      assert.deepEqual(await rates.rowsSince(1), { rows: sorted([...stored('cbr', CBR), ...stored('ecb', DAY1)]), version: 3 });
    });

    test('when the same values are merged again, then nothing changes and the version stays', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', [...DAY1, ...DAY2]);
      assert.deepEqual(await rates.merge('ecb', [...DAY2, ...DAY1]), { days: 2, rates: 6, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await rates.merge('ecb', []), { days: 0, rates: 0, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await rates.rowsSince(1), { rows: [], version: 1 });
    });

    test('when a stored value is corrected, then it counts as changed and is the only row after the old version', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', [...DAY1, ...DAY2]);
      const corrected = value('2026-11-19', 'USD', '1.0568');
      assert.deepEqual(await rates.merge('ecb', [...DAY1.slice(1), corrected, ...DAY2]), { days: 2, rates: 6, added: 0, changed: 1, version: 2 });
      assert.deepEqual(await rates.rowsSince(1), { rows: stored('ecb', [corrected]), version: 2 });
    });

    test('when a merge adds and corrects at once, then both are counted', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', DAY1);
      const report = await rates.merge('ecb', [value('2026-11-19', 'GBP', '0.8341'), value('2026-11-19', 'CHF', '0.9312'), ...DAY2]);
      assert.deepEqual(report, { days: 2, rates: 5, added: 4, changed: 1, version: 2 });
    });

    test('when a day is merged without one of its currencies, then the stored value of that currency stays', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', DAY1);
      assert.deepEqual(await rates.merge('ecb', [value('2026-11-19', 'USD', '1.0567')]), { days: 1, rates: 1, added: 0, changed: 0, version: 1 });
      await rates.merge('ecb', [value('2026-11-19', 'USD', '1.0570')]);
      assert.deepEqual((await rates.rowsSince(0)).rows, sorted(stored('ecb', [value('2026-11-19', 'USD', '1.0570'), ...DAY1.slice(1)])));
    });

    test("when a source's value is corrected, then another source's value of the same day and currency is untouched", async (t) => {
      const rates = await setup(t);
      await rates.merge('nbp', NBP);
      await rates.merge('cbr', CBR);
      const corrected = value('2026-03-02', 'EUR', '4.2305');
      assert.deepEqual(await rates.merge('nbp', [corrected, value('2026-03-03', 'EUR', '4.24')]), { days: 2, rates: 2, added: 1, changed: 1, version: 3 });
      assert.deepEqual((await rates.rowsSince(0)).rows, sorted([
        ...stored('cbr', CBR),
        ...stored('nbp', [corrected, ...NBP.slice(1), value('2026-03-03', 'EUR', '4.24')]),
      ]));
    });

    test('when values are stored, then they come back as the exact strings written', async (t) => {
      const rates = await setup(t);
      const exact = [
        value('2026-11-19', 'IDR', '17622.21'), value('2026-11-19', 'ISK', '146.10'), value('2026-11-19', 'XAA', '0.000012345'),
        value('2026-11-19', 'XAB', '12345678901234567890.123456789'), value('2026-11-19', 'XAC', '1'),
      ];
      await rates.merge('ecb', exact);
      assert.deepEqual((await rates.rowsSince(0)).rows, sorted(stored('ecb', exact)));
      // '146.1' and '146.10' are different strings: a correction, not a no-op.
      assert.equal((await rates.merge('ecb', [value('2026-11-19', 'ISK', '146.1')])).changed, 1);
    });

    test('when several merges happened, then rowsSince(v) returns exactly the rows written after v', async (t) => {
      const rates = await setup(t);
      const first = await rates.merge('ecb', DAY1);
      const second = await rates.merge('ecb', DAY2);
      const later = [value('2026-11-19', 'JPY', '163.50'), value('2026-11-21', 'USD', '1.0610')];
      const third = await rates.merge('ecb', later);
      assert.deepEqual([first.version, second.version, third.version], [1, 2, 3]);
      assert.equal((await rates.rowsSince(0)).rows.length, 7);
      assert.deepEqual(await rates.rowsSince(1), { rows: sorted(stored('ecb', [...DAY2, ...later])), version: 3 });
      assert.deepEqual(await rates.rowsSince(2), { rows: sorted(stored('ecb', later)), version: 3 });
      assert.deepEqual(await rates.rowsSince(3), { rows: [], version: 3 });
    });

    test('when one merge holds two different values for one cell, then the last one is stored, and counted once', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', [value('2026-11-19', 'USD', '1.0500'), value('2026-11-19', 'USD', '1.0567')]);
      assert.deepEqual((await rates.rowsSince(0)).rows, stored('ecb', [value('2026-11-19', 'USD', '1.0567')]));
      // Against a stored value: the last equal to it changes nothing; two others count one change.
      assert.deepEqual(await rates.merge('ecb', [value('2026-11-19', 'USD', '1.0600'), value('2026-11-19', 'USD', '1.0567')]), { days: 1, rates: 2, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await rates.merge('ecb', [value('2026-11-19', 'USD', '1.0600'), value('2026-11-19', 'USD', '1.0700')]), { days: 1, rates: 2, added: 0, changed: 1, version: 2 });
      assert.deepEqual((await rates.rowsSince(0)).rows, stored('ecb', [value('2026-11-19', 'USD', '1.0700')]));
    });

    test('when a merge fails part way, then none of its values land and the version stays', async (t) => {
      const rates = await setup(t);
      await rates.merge('ecb', DAY1);
      const values = generateValues(1_000, 25);
      // A value the schema refuses (NOT NULL), placed last, after every other was staged.
      values.push({ date: '2026-11-19', currency: 'USD', value: null as unknown as string });
      await assert.rejects(rates.merge('ecb', values));
      assert.equal(await rates.version(), 1);
      assert.deepEqual((await rates.rowsSince(0)).rows, sorted(stored('ecb', DAY1)));
      assert.deepEqual((await rates.daysSince(0)).days.map((day) => day.date), ['2026-11-19']);
    });

    test('when two merges run at once, then each gets its own version and both land', async (t) => {
      const rates = await setup(t);
      const reports = await Promise.all([rates.merge('ecb', DAY1), rates.merge('nbp', NBP), rates.merge('ecb', DAY2)]);
      assert.deepEqual(reports.map((report) => report.version).sort(), [1, 2, 3]);
      assert.ok(reports.every((report) => report.added === 3 && report.changed === 0));
      assert.deepEqual((await rates.rowsSince(0)).rows, sorted([...stored('ecb', [...DAY1, ...DAY2]), ...stored('nbp', NBP)]));
    });

    test('when 50,000 values are merged, then all land, and a re-merge with corrections writes only those', async (t) => {
      const rates = await setup(t);
      const values = generateValues(2_000, 25);
      assert.deepEqual(await rates.merge('ecb', values), { days: 2_000, rates: 50_000, added: 50_000, changed: 0, version: 1 });
      const all = await rates.rowsSince(0);
      assert.deepEqual(all.rows, sorted(stored('ecb', values)));
      assert.equal((await rates.daysSince(0)).days.length, 2_000);
      const corrected = values.map((v, i) => (i % 5_000 === 0 ? { ...v, value: v.value + '1' } : v));
      assert.deepEqual(await rates.merge('ecb', corrected), { days: 2_000, rates: 50_000, added: 0, changed: 10, version: 2 });
      assert.deepEqual((await rates.rowsSince(1)).rows, sorted(stored('ecb', corrected.filter((_, i) => i % 5_000 === 0))));
    });

    test('when days are asked since a version, then each (source, day) touched since is given whole, its values as one string', async (t) => {
      const rates = await setup(t);
      await rates.merge('nbp', NBP);
      await rates.merge('cbr', CBR);
      await rates.merge('nbp', [value('2026-03-03', 'EUR', '4.24')]);
      // Decoded and sorted: the order of the days, and of the values inside a day's string, is the store's.
      const decoded = async (version: number) => {
        const { days, version: now } = await rates.daysSince(version);
        const sortedDays = [...days].sort((a, b) => (`${a.source} ${a.date}` < `${b.source} ${b.date}` ? -1 : 1));
        return { days: sortedDays.map(({ source, date, rates: text }) => ({ source, date, values: Object.fromEntries(decodeDayRates(text, () => true)) })), version: now };
      };
      const nbp0302 = { source: 'nbp', date: '2026-03-02', values: { EUR: '4.2304', USD: '3.6056', HUF: '0.011155' } };
      const nbp0303 = { source: 'nbp', date: '2026-03-03', values: { EUR: '4.24' } };
      const cbr0302 = { source: 'cbr', date: '2026-03-02', values: { EUR: '88.2826', IRR: '0.0000539256' } };
      assert.deepEqual(await decoded(0), { days: [cbr0302, nbp0302, nbp0303], version: 3 });
      assert.deepEqual(await decoded(2), { days: [nbp0303], version: 3 });
      assert.deepEqual(await decoded(3), { days: [], version: 3 });
      // A correction of one value, in a file that omits the rest of the day: the day comes back whole.
      await rates.merge('nbp', [value('2026-03-02', 'USD', '3.6057')]);
      assert.deepEqual(await decoded(3), { days: [{ ...nbp0302, values: { ...nbp0302.values, USD: '3.6057' } }], version: 4 });
      // Another source's merge of the same day gives its own day, not the first's.
      await rates.merge('ecb', [value('2026-03-02', 'USD', '1.1649')]);
      assert.deepEqual(await decoded(4), { days: [{ source: 'ecb', date: '2026-03-02', values: { USD: '1.1649' } }], version: 5 });
    });

    test('when sources are stored, then lastDay gives the newest day of each, and null for one with nothing stored', async (t) => {
      const rates = await setup(t);
      await rates.merge('nbp', [...NBP, value('2026-03-03', 'CHF', '4.6'), value('2026-02-27', 'USD', '3.6')]);
      await rates.merge('cbr', CBR);
      await rates.merge('ecb', [value('2026-03-09', 'USD', '1.1')]);
      assert.deepEqual(
        await Promise.all(['nbp', 'cbr', 'ecb', 'cnb'].map((source) => rates.lastDay(source))),
        ['2026-03-03', '2026-03-02', '2026-03-09', null],
      );
    });
  });
}
