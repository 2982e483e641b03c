import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

/** INGEST_SCHEDULE and INGEST_ON_EMPTY (docs/operations.md, "Loading rates"): one schedule for every source. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  assert.fail(`${JSON.stringify(env)} was accepted`);
}

test('when INGEST_SCHEDULE is unset, auto, HH:MM or off, then every source runs after its own publication, at that UTC minute, or never', () => {
  assert.equal(loadConfig({}).ingestSchedule, 'auto');
  assert.equal(loadConfig({ INGEST_SCHEDULE: 'auto' }).ingestSchedule, 'auto');
  assert.equal(loadConfig({ INGEST_SCHEDULE: '16:30' }).ingestSchedule, 16 * 60 + 30);
  assert.equal(loadConfig({ INGEST_SCHEDULE: '00:00' }).ingestSchedule, 0);
  assert.equal(loadConfig({ INGEST_SCHEDULE: 'off' }).ingestSchedule, 'off');
  for (const value of ['25:00', '16:3', 'AUTO', 'daily']) {
    assert.match(refusal({ INGEST_SCHEDULE: value }), /INGEST_SCHEDULE: must be auto, HH:MM \(UTC\) or off/, value);
  }
});

test('when INGEST_ON_EMPTY names one of the ECB files or off, then it is taken; anything else is refused naming them', () => {
  assert.equal(loadConfig({}).ingestOnEmpty, 'ecb-hist');
  assert.equal(loadConfig({ INGEST_ON_EMPTY: 'ecb-daily' }).ingestOnEmpty, 'ecb-daily');
  assert.equal(loadConfig({ INGEST_ON_EMPTY: 'off' }).ingestOnEmpty, 'off');
  assert.match(refusal({ INGEST_ON_EMPTY: 'ecb' }), /INGEST_ON_EMPTY: must be one of ecb-daily, ecb-90d, ecb-hist, off/);
});

test('when INGEST_SCHEDULE_SOURCE is set, as an earlier release read it, then the start goes on and says it is no longer used', () => {
  assert.deepEqual(loadConfig({}).notices, []);
  const { notices } = loadConfig({ INGEST_SCHEDULE_SOURCE: 'ecb-90d' });
  assert.equal(notices.length, 1);
  assert.match(notices[0]!, /^INGEST_SCHEDULE_SOURCE is no longer used: /);
  assert.match(refusal({ INGEST_SCHEDULE_SOURCE: 'nbp' }), /INGEST_SCHEDULE_SOURCE/);
});
