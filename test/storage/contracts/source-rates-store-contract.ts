import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { decodeDayRates } from '../../../src/domain/day-encoding.js';
import type { SourceValue, SourceValueRow } from '../../../src/domain/source-values.js';
import type { RatesStore, SourceRatesStore } from '../../../src/storage/ports.js';

export interface SourceRatesFixture {
  sourceRates: SourceRatesStore;
  /** The ECB's store beside it, to show the two never touch each other. */
  rates: RatesStore;
  close(): Promise<void>;
}

const value = (date: string, currency: string, text: string): SourceValue => ({ date, currency, value: text });
const stored = (source: string, values: readonly SourceValue[]): SourceValueRow[] => values.map((v) => ({ source, ...v }));

/** Rows in (source, day, currency) order, the order rowsSince promises. */
function sorted(rows: readonly SourceValueRow[]): SourceValueRow[] {
  const key = (row: SourceValueRow) => `${row.source}\u0000${row.date}\u0000${row.currency}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// NBP table A of 2026-03-02 and a CBR day, values as the adapters store them (P, per one unit).
const NBP = [value('2026-03-02', 'EUR', '4.2304'), value('2026-03-02', 'USD', '3.6056'), value('2026-03-02', 'HUF', '0.011155')];
const CBR = [value('2026-03-02', 'EUR', '88.2826'), value('2026-03-02', 'IRR', '0.0000539256')];

/** The SourceRatesStore port's behaviour, run against every adapter. `open` gives fresh, empty stores. */
export function sourceRatesStoreContract(name: string, open: (t: TestContext) => Promise<SourceRatesFixture>): void {
  describe(name, () => {
    const setup = async (t: TestContext) => {
      const fixture = await open(t);
      t.after(() => fixture.close());
      return fixture;
    };

    test('when the store is new, then its version is 0 and it holds no values', async (t) => {
      const { sourceRates } = await setup(t);
      assert.equal(await sourceRates.version(), 0);
      assert.deepEqual(await sourceRates.rowsSince(0), { rows: [], version: 0 });
    });

    test('when two sources are merged, then each value comes back exactly, with its source, in source, day, currency order', async (t) => {
      const { sourceRates } = await setup(t);
      assert.deepEqual(await sourceRates.merge('nbp', NBP), { days: 1, rates: 3, added: 3, changed: 0, version: 1 });
      assert.deepEqual(await sourceRates.merge('cbr', CBR), { days: 1, rates: 2, added: 2, changed: 0, version: 2 });
      assert.deepEqual(await sourceRates.rowsSince(0), { rows: sorted([...stored('nbp', NBP), ...stored('cbr', CBR)]), version: 2 });
      assert.deepEqual(await sourceRates.rowsSince(1), { rows: stored('cbr', CBR), version: 2 });
    });

    test('when the same values are merged again, then nothing changes and the version stays', async (t) => {
      const { sourceRates } = await setup(t);
      await sourceRates.merge('nbp', NBP);
      assert.deepEqual(await sourceRates.merge('nbp', [...NBP].reverse()), { days: 1, rates: 3, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await sourceRates.merge('nbp', []), { days: 0, rates: 0, added: 0, changed: 0, version: 1 });
      assert.deepEqual(await sourceRates.rowsSince(1), { rows: [], version: 1 });
    });

    test('when a value is corrected, then only it changes; a value omitted stays; another source with the same cell is untouched', async (t) => {
      const { sourceRates } = await setup(t);
      await sourceRates.merge('nbp', NBP);
      await sourceRates.merge('cbr', CBR);
      const corrected = value('2026-03-02', 'EUR', '4.2305');
      assert.deepEqual(await sourceRates.merge('nbp', [corrected, value('2026-03-03', 'EUR', '4.24')]), {
        days: 2, rates: 2, added: 1, changed: 1, version: 3,
      });
      const all = (await sourceRates.rowsSince(0)).rows;
      assert.deepEqual(all, sorted([
        ...stored('cbr', CBR),
        ...stored('nbp', [corrected, ...NBP.slice(1), value('2026-03-03', 'EUR', '4.24')]),
      ]));
      // '4.24' and '4.240' are different texts: the adapters store canonical text, so a change.
      assert.equal((await sourceRates.merge('nbp', [value('2026-03-03', 'EUR', '4.240')])).changed, 1);
    });

    test('when days are asked since a version, then each (source, day) touched since is given whole, its values as one string', async (t) => {
      const { sourceRates } = await setup(t);
      assert.deepEqual(await sourceRates.daysSince(0), { days: [], version: 0 });
      await sourceRates.merge('nbp', NBP);
      await sourceRates.merge('cbr', CBR);
      await sourceRates.merge('nbp', [value('2026-03-03', 'EUR', '4.24')]);
      // Decoded, since the order of the values inside a day's string is the store's.
      const decoded = async (version: number) => {
        const { days, version: now } = await sourceRates.daysSince(version);
        return { days: days.map(({ source, date, rates }) => ({ source, date, values: Object.fromEntries(decodeDayRates(rates, () => true)) })), version: now };
      };
      const nbp0302 = { source: 'nbp', date: '2026-03-02', values: { EUR: '4.2304', USD: '3.6056', HUF: '0.011155' } };
      const nbp0303 = { source: 'nbp', date: '2026-03-03', values: { EUR: '4.24' } };
      const cbr0302 = { source: 'cbr', date: '2026-03-02', values: { EUR: '88.2826', IRR: '0.0000539256' } };
      assert.deepEqual(await decoded(0), { days: [cbr0302, nbp0302, nbp0303], version: 3 });
      assert.deepEqual(await decoded(2), { days: [nbp0303], version: 3 });
      assert.deepEqual(await decoded(3), { days: [], version: 3 });
      // A correction of one value gives its day again, whole.
      await sourceRates.merge('nbp', [value('2026-03-02', 'USD', '3.6057')]);
      assert.deepEqual(await decoded(3), { days: [{ ...nbp0302, values: { ...nbp0302.values, USD: '3.6057' } }], version: 4 });
    });

    test('when one merge holds two values for one cell, then the last is stored', async (t) => {
      const { sourceRates } = await setup(t);
      await sourceRates.merge('cnb', [value('2026-01-02', 'USD', '21.1'), value('2026-01-02', 'USD', '21.2')]);
      assert.deepEqual((await sourceRates.rowsSince(0)).rows, stored('cnb', [value('2026-01-02', 'USD', '21.2')]));
    });

    test('when a merge fails part way, then none of its values land and the version stays', async (t) => {
      const { sourceRates } = await setup(t);
      await sourceRates.merge('nbp', NBP);
      const many = Array.from({ length: 2_000 }, (_, i) => value(`2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, `A${String.fromCharCode(65 + Math.floor(i / 28) % 26)}${String.fromCharCode(65 + (i % 26))}`, `1.${i}`));
      // A value the schema refuses (NOT NULL), last, after every other was staged.
      many.push({ date: '2026-03-02', currency: 'USD', value: null as unknown as string });
      await assert.rejects(sourceRates.merge('nbp', many));
      assert.equal(await sourceRates.version(), 1);
      assert.deepEqual((await sourceRates.rowsSince(0)).rows, sorted(stored('nbp', NBP)));
    });

    test('when two merges run at once, then each gets its own version and both land', async (t) => {
      const { sourceRates } = await setup(t);
      const reports = await Promise.all([sourceRates.merge('nbp', NBP), sourceRates.merge('cbr', CBR)]);
      assert.deepEqual(reports.map((report) => report.version).sort(), [1, 2]);
      assert.equal((await sourceRates.rowsSince(0)).rows.length, 5);
    });

    test("when sources are merged, then the ECB's rates store and its version are untouched, and the other way round", async (t) => {
      const { sourceRates, rates } = await setup(t);
      await sourceRates.merge('nbp', NBP);
      assert.equal(await rates.version(), 0);
      assert.deepEqual(await rates.rowsSince(0), { rows: [], version: 0 });
      await rates.merge([{ date: '2026-03-02', currency: 'USD', rate: '1.1' }]);
      assert.equal(await sourceRates.version(), 1);
      assert.deepEqual((await sourceRates.rowsSince(0)).rows, sorted(stored('nbp', NBP)));
    });

    test('when sources are stored, then the summary gives each its codes in code order and its first and last day, by source id', async (t) => {
      const { sourceRates, rates } = await setup(t);
      assert.deepEqual(await sourceRates.summary(), { sources: [], version: 0 });
      await sourceRates.merge('nbp', [...NBP, value('2026-03-03', 'CHF', '4.6'), value('2026-02-27', 'USD', '3.6')]);
      await sourceRates.merge('cbr', CBR);
      // The ECB's rates are not a source of this store.
      await rates.merge([{ date: '2026-03-09', currency: 'USD', rate: '1.1' }]);
      assert.deepEqual(await sourceRates.summary(), {
        sources: [
          { source: 'cbr', codes: ['EUR', 'IRR'], firstDay: '2026-03-02', lastDay: '2026-03-02' },
          { source: 'nbp', codes: ['CHF', 'EUR', 'HUF', 'USD'], firstDay: '2026-02-27', lastDay: '2026-03-03' },
        ],
        version: 2,
      });
    });
  });
}
