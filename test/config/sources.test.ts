import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { SOURCE_ADAPTERS, SOURCE_IDS } from '../../src/ingest/sources/registry.js';
import { describeRun, runCli, serviceEnv } from '../helpers/cli.js';
import { freePort } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/** SOURCES (DECISIONS §9): the enabled rate sources in priority order, `ecb` unless set. */
function refusal(value: string): string {
  try {
    loadConfig({ SOURCES: value });
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  assert.fail(`SOURCES=${JSON.stringify(value)} was accepted`);
}

test('when SOURCES is unset or empty, then the ECB alone is enabled', () => {
  assert.deepEqual(loadConfig({}).sources, ['ecb']);
  assert.deepEqual(loadConfig({ SOURCES: '' }).sources, ['ecb']);
});

test('when SOURCES lists known ids, then they are enabled in that order, blanks around an id and its case ignored', () => {
  assert.deepEqual(loadConfig({ SOURCES: 'nbp,ecb,cnb' }).sources, ['nbp', 'ecb', 'cnb']);
  assert.deepEqual(loadConfig({ SOURCES: ' NBU , boc,cbr' }).sources, ['nbu', 'boc', 'cbr']);
  // The ECB need not be enabled at all.
  assert.deepEqual(loadConfig({ SOURCES: 'cnb' }).sources, ['cnb']);
});

test('when SOURCES=all, then every source is enabled, the ECB first then by breadth, home banks first per code', () => {
  for (const value of ['all', ' ALL ']) {
    const config = loadConfig({ SOURCES: value });
    assert.equal(config.sources.length, 34);
    assert.deepEqual([...config.sources].sort(), [...SOURCE_IDS].sort());
    assert.deepEqual(config.sources.slice(0, 4), ['ecb', 'bdi', 'nbp', 'cbu'], 'bdi quotes 151 codes, nbp 149, cbu 76');
    const breadth = config.sources.slice(1).map((id) => SOURCE_ADAPTERS.find((adapter) => adapter.id === id)!.codes.length);
    assert.deepEqual(breadth, [...breadth].sort((a, b) => b - a), 'most codes first');
    assert.equal(config.homeFirstAfter, 'ecb');
    assert.equal(config.currencies.length, 160, 'every code a source publishes');
  }
  assert.equal(loadConfig({ SOURCES: 'ecb,nbp' }).homeFirstAfter, undefined, 'a list is its own order');
  // `all` is a value of its own, not an id among others.
  assert.match(refusal('ecb,all'), /^Invalid configuration: SOURCES: unknown source "all" \(known: /);
});

test('when SOURCES has an unknown id, an empty item or a repeat, then loadConfig refuses it naming the variable and each problem', () => {
  // Every registered id, in the registry's order (registry.test.ts holds that list).
  const known = SOURCE_IDS.join(', ');
  assert.ok(known.startsWith('ecb, nbp, cnb, boc, cbr, nbu, '), known);
  assert.equal(refusal('ecb,fed'), `Invalid configuration: SOURCES: unknown source "fed" (known: ${known})`);
  assert.equal(refusal('ecb,,nbp'), 'Invalid configuration: SOURCES: has an empty item (ids are joined by single commas)');
  assert.equal(refusal('ecb,'), 'Invalid configuration: SOURCES: has an empty item (ids are joined by single commas)');
  assert.equal(refusal('nbp,ecb,NBP'), 'Invalid configuration: SOURCES: lists "nbp" twice');
  assert.equal(
    refusal('x,,ecb,ecb'),
    `Invalid configuration: SOURCES: unknown source "x" (known: ${known}); ` +
      'SOURCES: has an empty item (ids are joined by single commas); SOURCES: lists "ecb" twice',
  );
});

test('when SOURCES names an unknown source, then serve exits non-zero with the message and never listens', async (t) => {
  const dir = tempDir(t);
  const port = String(await freePort());
  const result = await runCli(['serve'], serviceEnv(join(dir, 'rates.db'), { PORT: port, HOST: '127.0.0.1', SOURCES: 'ecb,nbp,fed' }), {
    timeoutMs: 8000,
  });
  assert.ok(!result.timedOut && result.code !== 0 && result.code !== null, describeRun(result));
  assert.match(result.stderr, /Invalid configuration: SOURCES: unknown source "fed"/);
});
