import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { TrackedCurrencies } from '../../src/domain/currencies.js';
import { Day } from '../../src/domain/day.js';
import { roundedRatio } from '../../src/domain/money.js';
import { RatesView, type ServedSource } from '../../src/live/rates-view.js';
import { openStores } from '../../src/storage/open-stores.js';
import { fullHistoryView } from '../helpers/full-history-view.js';

/**
 * The view behind every answer (DECISIONS §9): it serves the enabled sources only, each day from
 * the first of them that has a code, reloads only when the store moved, makes a new snapshot when
 * the UTC date moves ("latest" depends on it), and loads one refresh at a time.
 */

const TRACKED = new TrackedCurrencies(['EUR', 'USD', 'PLN', 'RUB']);
const SOURCES: ServedSource[] = [{ id: 'ecb', base: 'EUR', terms: 'units-per-base' }, { id: 'nbp', base: 'PLN', terms: 'base-per-unit' }];

async function storesWithData(t: import('node:test').TestContext) {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  await stores.rates.merge('ecb', [{ date: '2026-03-04', currency: 'USD', value: '1.1649' }]);
  // NBP: PLN per unit. CBR is stored too, but not enabled.
  await stores.rates.merge('nbp', [
    { date: '2026-03-04', currency: 'EUR', value: '4.2516' },
    { date: '2026-03-04', currency: 'USD', value: '3.6770' },
    { date: '2026-03-05', currency: 'EUR', value: '4.25' },
    { date: '2026-03-05', currency: 'RUB', value: '0.0415' },
  ]);
  await stores.rates.merge('cbr', [{ date: '2026-03-06', currency: 'EUR', value: '90.5' }]);
  return stores;
}

test('when the ECB and NBP are enabled, then each day takes each code from the first of them that has it, and a source not enabled is not served', async (t) => {
  const stores = await storesWithData(t);
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => '2026-03-10');
  assert.equal(await view.refresh(), true);
  const snapshot = view.snapshot;
  assert.deepEqual(snapshot.datesNewestFirst, ['2026-03-05', '2026-03-04']);
  const rate = (date: string, code: string) => {
    const value = snapshot.day(date)?.rate(code);
    return value === undefined ? undefined : roundedRatio(value);
  };
  assert.equal(rate('2026-03-04', 'USD'), '1.164900', "the ECB's own figure");
  assert.equal(rate('2026-03-04', 'PLN'), '4.251600', "NBP's P(EUR): the ECB quotes no PLN here");
  assert.equal(rate('2026-03-05', 'RUB'), roundedRatio({ num: 42500n, den: 415n }), 'P(EUR) / P(RUB)');
  assert.equal(rate('2026-03-05', 'USD'), undefined);
  assert.equal(snapshot.day('2026-03-06'), undefined, 'CBR is not enabled');
});

test('when nothing moved, then a refresh loads nothing; when the date moves, then only a new snapshot is made', async (t) => {
  const stores = await storesWithData(t);
  let today = '2026-03-04';
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => today);
  await view.refresh();
  const first = view.snapshot;
  assert.equal(first.latestWith(['RUB']), undefined, '2026-03-05 is after today');
  assert.equal(await view.refresh(), false);
  assert.equal(view.snapshot, first, 'the same snapshot');

  today = '2026-03-05';
  assert.equal(await view.refresh(), false, 'no new data');
  assert.notEqual(view.snapshot.version, first.version, 'a new snapshot, so nothing kept by version outlives the date');
  assert.equal(view.snapshot.latestWith(['RUB'])?.date, '2026-03-05');

  await stores.rates.merge('nbp', [{ date: '2026-03-05', currency: 'USD', value: '3.66' }]);
  assert.equal(await view.refresh(), true);
  assert.equal(roundedRatio(view.snapshot.day('2026-03-05')!.rate('USD')!), roundedRatio({ num: 425n, den: 366n }));
});

test('when two refreshes are asked at once after new data, then both end with every day loaded', async (t) => {
  const stores = await storesWithData(t);
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => '2026-03-10');
  await view.refresh();
  await stores.rates.merge('ecb', [{ date: '2026-03-09', currency: 'USD', value: '1.16' }]);
  await stores.rates.merge('nbp', [{ date: '2026-03-09', currency: 'EUR', value: '4.26' }]);
  const results = await Promise.all([view.refresh(), view.refresh()]);
  assert.deepEqual(results, [true, false], 'the second finds the first has loaded it all');
  const day = view.snapshot.day('2026-03-09')!;
  assert.deepEqual([roundedRatio(day.rate('USD')!), roundedRatio(day.rate('PLN')!)], ['1.160000', '4.260000']);
});

test('when sources are stored, then the snapshot holds what GET /sources shows: each enabled source\'s every stored code and its first and last day', async (t) => {
  const stores = await storesWithData(t);
  // TRL and HUF are stored but not served (not tracked): listed all the same.
  await stores.rates.merge('ecb', [{ date: '2026-03-02', currency: 'TRL', value: '1500000' }]);
  await stores.rates.merge('nbp', [{ date: '2026-03-03', currency: 'HUF', value: '0.011' }]);
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => '2026-03-10');
  assert.equal(view.snapshot.spanOf('ecb'), undefined, 'before the first load');
  await view.refresh();
  assert.deepEqual(view.snapshot.spanOf('ecb'), { codes: ['TRL', 'USD'], firstDay: '2026-03-02', lastDay: '2026-03-04' });
  assert.deepEqual(view.snapshot.spanOf('nbp'), { codes: ['EUR', 'HUF', 'RUB', 'USD'], firstDay: '2026-03-03', lastDay: '2026-03-05' });
  assert.equal(view.snapshot.spanOf('cbr'), undefined, 'CBR is stored but not enabled');

  await stores.rates.merge('nbp', [{ date: '2026-03-09', currency: 'CHF', value: '4.6' }]);
  await view.refresh();
  assert.deepEqual(view.snapshot.spanOf('nbp'), { codes: ['CHF', 'EUR', 'HUF', 'RUB', 'USD'], firstDay: '2026-03-03', lastDay: '2026-03-09' });
  assert.deepEqual(view.snapshot.spanOf('ecb'), { codes: ['TRL', 'USD'], firstDay: '2026-03-02', lastDay: '2026-03-04' }, 'kept from the load before');
});

/** A store behind a switch: while `down`, its calls (or only `only`) fail as an unreachable database's do. */
function switchable<T extends object>(store: T, isDown: () => boolean, only?: string): T {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const fails = () => isDown() && (only === undefined || property === only);
      return (...args: unknown[]) => (fails() ? Promise.reject(new Error('connect ECONNREFUSED')) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

test('when a load fails after the version was read, then nothing of it is kept and the next load brings every source\'s days', async (t) => {
  const stores = await storesWithData(t);
  let daysDown = false;
  const view = new RatesView(switchable(stores.rates, () => daysDown, 'daysSince'), TRACKED, SOURCES, () => '2026-03-10');
  await view.refresh();
  const before = view.snapshot;
  await stores.rates.merge('ecb', [{ date: '2026-03-09', currency: 'USD', value: '1.17' }]);
  await stores.rates.merge('nbp', [{ date: '2026-03-06', currency: 'EUR', value: '4.26' }]);

  daysDown = true;
  await assert.rejects(view.refresh(), /ECONNREFUSED/);
  assert.equal(view.snapshot, before, 'the snapshot held stays as it was');
  daysDown = false;
  assert.equal(await view.refresh(), true);
  assert.equal(view.snapshot.latestWith(['USD'])?.date, '2026-03-09', "the ECB's new day is loaded");
  assert.equal(roundedRatio(view.snapshot.day('2026-03-09')!.rate('USD')!), '1.170000');
  assert.equal(roundedRatio(view.snapshot.day('2026-03-06')!.rate('PLN')!), '4.260000');
  assert.equal(view.snapshot.spanOf('ecb')?.lastDay, '2026-03-09');
});

test('when only a source not enabled is ingested, then a refresh reads its days but makes no new snapshot', async (t) => {
  const stores = await storesWithData(t);
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => '2026-03-10');
  await view.refresh();
  const before = view.snapshot;
  await stores.rates.merge('cbr', [{ date: '2026-03-07', currency: 'EUR', value: '91' }]);
  assert.equal(await view.refresh(), false);
  assert.equal(view.snapshot, before, 'nothing served changed');
  await stores.rates.merge('nbp', [{ date: '2026-03-09', currency: 'EUR', value: '4.26' }]);
  assert.equal(await view.refresh(), true);
  assert.equal(view.snapshot.latestWith(['PLN'])?.date, '2026-03-09');
});

test('when the UTC date moves while the store is unreachable, then "latest" still follows it, on the data held', async (t) => {
  const stores = await storesWithData(t);
  let down = false;
  let today = '2026-03-04';
  const view = new RatesView(switchable(stores.rates, () => down), TRACKED, SOURCES, () => today);
  await view.refresh();
  const before = view.snapshot;
  assert.equal(before.latestWith(['RUB']), undefined, "NBP's 2026-03-05 is after today");

  down = true;
  today = '2026-03-05';
  await assert.rejects(view.refresh(), /ECONNREFUSED/);
  assert.notEqual(view.snapshot.version, before.version, 'a new snapshot, so no answer kept by version outlives the date');
  assert.equal(view.snapshot.latestWith(['RUB'])?.date, '2026-03-05');
  await assert.rejects(view.refresh(), /ECONNREFUSED/);
  const held = view.snapshot;
  await assert.rejects(view.refresh(), /ECONNREFUSED/);
  assert.equal(view.snapshot, held, 'the same date makes no new snapshot');
});

test('when a source gives units per 1 of a base other than EUR, then the view serves it exactly, alone on a day or beside others', async (t) => {
  const stores = await openStores('sqlite::memory:');
  t.after(() => stores.close());
  // A bank quoting units per 1 GBP, as the Bank of England does; enabled after the ECB.
  await stores.rates.merge('boe', [
    { date: '2026-03-04', currency: 'EUR', value: '1.17' },
    { date: '2026-03-04', currency: 'USD', value: '1.27' },
    { date: '2026-03-05', currency: 'EUR', value: '1.18' },
    { date: '2026-03-05', currency: 'USD', value: '1.28' },
  ]);
  await stores.rates.merge('ecb', [{ date: '2026-03-05', currency: 'USD', value: '1.1649' }]);
  const tracked = new TrackedCurrencies(['EUR', 'USD', 'GBP']);
  const view = new RatesView(stores.rates, tracked, [SOURCES[0]!, { id: 'boe', base: 'GBP', terms: 'units-per-base' }], () => '2026-03-10');
  await view.refresh();
  const rate = (date: string, code: string) => roundedRatio(view.snapshot.day(date)!.rate(code)!);
  assert.equal(rate('2026-03-04', 'USD'), roundedRatio({ num: 127n, den: 117n }), 'U(USD) / U(EUR), the bank alone that day');
  assert.equal(rate('2026-03-04', 'GBP'), roundedRatio({ num: 100n, den: 117n }), 'its base: 1 / U(EUR)');
  assert.equal(rate('2026-03-05', 'USD'), '1.164900', "the ECB's, first in SOURCES");
  assert.equal(rate('2026-03-05', 'GBP'), roundedRatio({ num: 100n, den: 118n }), 'GBP from the bank, the ECB quoting none that day');
});

test('when a source is asked alone, then a day it alone gives in EUR is the served day itself, and a shared day is its own, in its own terms', async (t) => {
  const stores = await storesWithData(t);
  await stores.rates.merge('ecb', [{ date: '2026-03-09', currency: 'USD', value: '1.1702' }]);
  const view = new RatesView(stores.rates, TRACKED, SOURCES, () => '2026-03-10');
  await view.refresh();
  const ecb = view.snapshotOf('ecb');
  assert.equal(ecb.day('2026-03-09'), view.snapshot.day('2026-03-09'), 'the ECB alone that day: one object, decoded once');
  assert.notEqual(ecb.day('2026-03-04'), view.snapshot.day('2026-03-04'), 'NBP gives that day too: the blend serves its PLN');
  assert.equal(ecb.day('2026-03-04')!.has('PLN'), false);
  assert.equal(view.snapshot.day('2026-03-04')!.has('PLN'), true);
  const nbp = view.snapshotOf('nbp').day('2026-03-05')!;
  assert.equal(roundedRatio(nbp.rate('RUB')!), roundedRatio({ num: 10000n, den: 415n }), 'RUB per 1 PLN: 1 / P(RUB)');
  assert.equal(roundedRatio(nbp.rate('PLN')!), '1.000000', 'its own base is 1');
});

/** The calls a mocked method gets in each turn of the event loop, turn after turn, until a turn brings none. */
async function callsPerTurn(mock: { callCount(): number }): Promise<number[]> {
  const perTurn: number[] = [];
  for (let before = -1; mock.callCount() !== before; ) {
    before = mock.callCount();
    await setImmediate();
    perTurn.push(mock.callCount() - before);
  }
  return perTurn;
}

test('when the whole history is loaded, then its index by code is made 500 days a turn, before any range asks for it', async (t) => {
  const { view } = await fullHistoryView(t);
  // Made from the turn after the refresh, a piece per turn of the event loop.
  const read = t.mock.method(Day.prototype, 'codes');
  const perTurn = await callsPerTurn(read.mock);
  const days = view.snapshot.dayCount;
  assert.equal(read.mock.callCount(), days, `each of the ${days} days read once`);
  assert.ok(Math.max(...perTurn) <= 500, `at most 500 days a turn (${perTurn.join(' ')})`);
  assert.ok(view.snapshot.firstAndLastWith(['USD', 'JPY'], '2025-01-01', undefined) !== undefined);
  assert.equal(read.mock.callCount(), days, 'the first range read no day to find its days');
});

test('when a source is first asked alone, then its own snapshot is indexed 500 days a turn too, before any range asks for it', async (t) => {
  const { view } = await fullHistoryView(t);
  // The blend's index, made at once: only the source's own is counted below.
  assert.ok(view.snapshot.firstAndLastWith(['USD'], '1999-01-01', undefined) !== undefined);
  const read = t.mock.method(Day.prototype, 'codes');
  const alone = view.snapshotOf('ecb');
  assert.notEqual(alone, view.snapshot, 'a snapshot of its own');
  assert.equal(read.mock.callCount(), 0, 'nothing indexed in the turn that made it');
  const perTurn = await callsPerTurn(read.mock);
  const days = alone.dayCount;
  assert.equal(read.mock.callCount(), days, `each of the ${days} days read once`);
  assert.ok(Math.max(...perTurn) <= 500, `at most 500 days a turn (${perTurn.join(' ')})`);
  assert.ok(alone.firstAndLastWith(['USD', 'JPY'], '2025-01-01', undefined) !== undefined);
  assert.equal(read.mock.callCount(), days, 'the first range read no day to find its days');
});
