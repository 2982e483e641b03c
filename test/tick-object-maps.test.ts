import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeRun, fixture, runCli, serviceEnv } from './helpers/cli.js';
import { apiGet, pollUntil, spawnServer } from './helpers/server-process.js';
import { tempDir } from './helpers/test-server.js';
import { TICK_FEEDBACK_MARKER, tickLiteralStates } from './helpers/tick-feedback.js';

/**
 * src/tick-object-maps.ts: a full garbage collection while no tick object is alive must not send
 * `process.nextTick` to V8's slow path for good. V8 reports the state of the tick literal's four
 * keys (`%DebugPrint`); the fast state is MONOMORPHIC for each. The literal has four keys on Node
 * 20 and five on Node 24.
 */
const TICK_LITERAL_KEYS = Number(process.versions.node.split('.')[0]) >= 24 ? 5 : 4;

const urlOf = (relative: string) => pathToFileURL(fileURLToPath(new URL(relative, import.meta.url))).href;

/** Ticks, two full collections with no tick object alive, more ticks, then V8's view of nextTick. */
function afterFullCollections(hold: boolean): string[] {
  const script = `
    import { holdTickObjectMaps } from ${JSON.stringify(urlOf('../src/tick-object-maps.js'))};
    import { printTickFeedbackAfterFullCollections } from ${JSON.stringify(urlOf('./helpers/tick-feedback.js'))};
    ${hold ? 'holdTickObjectMaps();' : ''}
    for (let i = 0; i < 200; i++) await new Promise((resolve) => process.nextTick(resolve));
    await printTickFeedbackAfterFullCollections();
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return tickLiteralStates(run.stdout);
}

test('without a held tick object, a full collection with none alive leaves the tick literal megamorphic (the V8 behaviour the module is for)', () => {
  const states = afterFullCollections(false);
  assert.equal(states.length, TICK_LITERAL_KEYS, 'V8 reports every key of the tick literal');
  assert.ok(states.includes('MEGAMORPHIC'), `states: ${states.join(', ')}`);
});

test('with holdTickObjectMaps called first, the tick literal stays monomorphic through full collections', () => {
  assert.deepEqual(afterFullCollections(true), Array(TICK_LITERAL_KEYS).fill('MONOMORPHIC'));
});

test('when a served process has answered requests and gone through full collections with no tick object alive, then process.nextTick is still on the fast path', async (t) => {
  const dir = tempDir(t, 'currency-rates-ticks-');
  const env = serviceEnv(join(dir, 'rates.db'));
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const created = await runCli(['keys', 'create', '--name', 'ticks'], env);
  assert.equal(created.code, 0, describeRun(created));
  const key = created.stdout.trim().split('\n').pop() ?? '';
  const probe = urlOf('./helpers/tick-feedback-probe.js');
  // No log lines: V8's print goes out 4 KiB at a time, and a line written between would cut it.
  const server = await spawnServer(t, { ...env, LOG_LEVEL: 'silent', NODE_OPTIONS: `--import ${probe}` }, { stdoutFile: join(dir, 'stdout') });
  for (let i = 0; i < 20; i++) assert.equal((await apiGet(server.url, '/api/v1/rates/latest', key)).status, 200);

  server.child.kill('SIGUSR2');
  await pollUntil(async () => (server.stdout().includes(TICK_FEEDBACK_MARKER) ? true : undefined), {
    timeoutMs: 10_000,
    what: 'the probe to have collected and printed',
    last: () => server.stderr(),
  });
  assert.equal((await apiGet(server.url, '/api/v1/rates/latest', key)).status, 200);
  assert.equal((await server.stop('SIGTERM')).code, 0);
  const stdout = server.stdout();
  const printed = stdout.slice(stdout.indexOf(TICK_FEEDBACK_MARKER));
  assert.deepEqual(tickLiteralStates(printed), Array(TICK_LITERAL_KEYS).fill('MONOMORPHIC'), printed);
});
