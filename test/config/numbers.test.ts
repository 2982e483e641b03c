import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { describeRun, mapLimit, runCli, serviceEnv, type CliResult } from '../helpers/cli.js';
import { freePort } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/**
 * Numeric settings are plain decimal integers (DECISIONS §12): a value Number() would read some
 * other way (hex, exponent, a fraction written out, surrounding blanks, a sign, blanks alone)
 * stops the start with a message naming the variable, instead of running with a number the
 * operator did not write. An empty value still counts as unset (README, Configuration).
 */
const NUMERIC = ['PORT', 'QUOTA_LIMIT', 'QUOTA_PERIOD_DAYS', 'REFRESH_INTERVAL_MS', 'WORKERS'] as const;
const NOT_PLAIN = ['0x10', '1e3', '10.0', ' 5', '5 ', '+5', ' ', '0b11', '0o17', '1_000', '٥'];
/** Values within every numeric variable's range, so only their spelling is wrong. */
const VALID = { PORT: '0', QUOTA_LIMIT: '1000', QUOTA_PERIOD_DAYS: '30', REFRESH_INTERVAL_MS: '1000', WORKERS: '1' } as const;

function failed(result: CliResult): boolean {
  return !result.timedOut && result.code !== 0 && result.code !== null;
}

test('when a numeric setting is not a plain decimal integer (0x10, 1e3, 10.0, blanks, a sign), then serve exits non-zero naming the variable', async (t) => {
  const dir = tempDir(t);
  const port = String(await freePort());
  const cases = NUMERIC.flatMap((name) => ['0x10', '1e3', '10.0', ' 5', '+5'].map((value) => [name, value] as const));
  const results = await mapLimit(cases, 6, ([name, value]) =>
    runCli(['serve'], serviceEnv(join(dir, 'rates.db'), { PORT: port, HOST: '127.0.0.1', [name]: value }), { timeoutMs: 8000 }),
  );
  results.forEach((result, i) => {
    const [name, value] = cases[i]!;
    assert.ok(result);
    assert.ok(failed(result), `${name}=${JSON.stringify(value)} stops the start: ${describeRun(result)}`);
    assert.match(result.stderr, new RegExp(`Invalid configuration: .*${name}: must be a plain decimal integer`), `${name}=${JSON.stringify(value)}: ${result.stderr}`);
  });
});

test('when a numeric setting is spelled any other way than plain decimal digits, then loadConfig refuses it naming the variable', () => {
  for (const name of NUMERIC) {
    for (const value of NOT_PLAIN) {
      assert.throws(
        () => loadConfig({ ...VALID, [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.message.includes(`${name}: must be a plain decimal integer`),
        `${name}=${JSON.stringify(value)}`,
      );
    }
  }
});

test('when numeric settings are plain decimal integers, then they are read as written, and an empty one is unset', () => {
  const config = loadConfig({ PORT: '8080', QUOTA_LIMIT: '16', QUOTA_PERIOD_DAYS: '7', REFRESH_INTERVAL_MS: '250', WORKERS: '3' });
  assert.equal(config.port, 8080);
  assert.equal(config.quota.limit, 16);
  assert.equal(config.quota.periodMs, 7 * 86_400_000);
  assert.equal(config.refreshIntervalMs, 250);
  assert.equal(config.workers, 3);
  const defaults = loadConfig({ PORT: '', QUOTA_LIMIT: '', QUOTA_PERIOD_DAYS: '', REFRESH_INTERVAL_MS: '', WORKERS: '' });
  assert.equal(defaults.port, 3000);
  assert.equal(defaults.quota.limit, 1000);
  // Out of range is still refused with the range's message.
  assert.throws(() => loadConfig({ QUOTA_LIMIT: '0' }), /QUOTA_LIMIT/);
  assert.throws(() => loadConfig({ PORT: '65536' }), /PORT/);
});
