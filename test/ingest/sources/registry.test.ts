import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseRatesFile } from '../../../src/ingest/parse-rates-file.js';
import { ecb } from '../../../src/ingest/sources/ecb.js';
import { SOURCE_ADAPTERS, SOURCE_IDS, sourceAdapter } from '../../../src/ingest/sources/registry.js';
import { ECB_FIXTURES } from '../../helpers/ecb-history-csv.js';
import { PROVIDER_FILES, providerBytes } from '../../helpers/provider-fixtures.js';

/** The sources quoting units of each currency per 1 base unit, stored as written (never inverted). */
const UNITS_PER_BASE = ['ecb', 'bdi', 'boe', 'rba', 'hnb'];

test('when the registry is read, then it lists the ECB and the banks, each with a unique id and a well-formed description', () => {
  assert.deepEqual(SOURCE_IDS, [
    'ecb', 'nbp', 'cnb', 'boc', 'cbr', 'nbu',
    'bdi', 'boe', 'rba', 'nb', 'rb', 'dnb', 'bnr', 'mnb', 'bcb', 'nbg', 'nbk', 'nbrb', 'imf', 'hkma',
    'sarb', 'cbu', 'bna', 'bcra', 'bom', 'nbm', 'sbi', 'nbe', 'hnb', 'cba', 'nbt', 'bcu', 'nbkr', 'bnm',
  ]);
  assert.equal(new Set(SOURCE_IDS).size, SOURCE_IDS.length, 'unique ids');
  for (const adapter of SOURCE_ADAPTERS) {
    assert.equal(sourceAdapter(adapter.id), adapter);
    assert.match(adapter.base, /^[A-Z]{3}$/, adapter.id);
    assert.equal(adapter.terms, UNITS_PER_BASE.includes(adapter.id) ? 'units-per-base' : 'base-per-unit', adapter.id);
    assert.match(adapter.homepage, /^https:\/\//, adapter.id);
    assert.match(adapter.schedule.localTime, /^([01]\d|2[0-3]):[0-5]\d$/, adapter.id);
    assert.doesNotThrow(() => new Intl.DateTimeFormat('en', { timeZone: adapter.schedule.timeZone }), `${adapter.id}: a real IANA zone`);
    assert.ok(adapter.schedule.weekdays.length > 0 && adapter.schedule.weekdays.every((d) => d >= 1 && d <= 7), adapter.id);
    for (const url of [...adapter.urls(), ...adapter.urls({ from: '2026-03-02', to: '2026-03-04' })]) assert.match(url, /^https:\/\//, adapter.id);
  }
  assert.equal(sourceAdapter('constructor'), undefined);
  assert.equal(sourceAdapter('NBP'), undefined, 'ids are lower-case, matched exactly');
});

test('when the ECB adapter parses an ECB file, then it gives exactly the days of the existing ECB reader', async () => {
  for (const name of ['eurofxref-daily.xml', 'eurofxref-hist-90d.xml']) {
    const bytes = readFileSync(join(ECB_FIXTURES, name));
    const mine = await ecb.parse(bytes, name);
    const theirs = await parseRatesFile(bytes, name);
    assert.deepEqual(mine, theirs.map((day) => ({ date: day.date, values: day.rates })), name);
  }
});

test('when every recorded bank file is parsed, then with the ECB\'s current 30 codes they cover 153, metals and XDR among them', async () => {
  const daily = await ecb.parse(readFileSync(join(ECB_FIXTURES, 'eurofxref-daily.xml')), 'eurofxref-daily.xml');
  const ecbCodes = new Set(['EUR', ...daily.flatMap((day) => [...day.values.keys()])]);
  assert.equal(ecbCodes.size, 30);
  const files: [string, string][] = [
    ['nbp', PROVIDER_FILES.nbpA], ['nbp', PROVIDER_FILES.nbpB], ['cnb', PROVIDER_FILES.cnb],
    ['boc', PROVIDER_FILES.boc], ['cbr', PROVIDER_FILES.cbr], ['nbu', PROVIDER_FILES.nbu],
  ];
  const codes = new Set<string>();
  for (const [id, file] of files) {
    const adapter = sourceAdapter(id)!;
    codes.add(adapter.base);
    for (const day of await adapter.parse(providerBytes(file), file)) for (const code of day.values.keys()) codes.add(code);
  }
  const beyond = [...codes].filter((code) => !ecbCodes.has(code));
  assert.equal(beyond.length, 123, beyond.join(' '));
  assert.equal(new Set([...ecbCodes, ...codes]).size, 153);
  for (const code of ['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'UAH', 'AFN', 'ZWG']) assert.ok(codes.has(code), code);
});
