import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv, type CliResult } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/** DECISIONS §10, driven as an operator does: keys create --quota, update, revoke --name, list [--json]. */

interface Listed {
  id: number;
  name: string | null;
  created_at: string;
  quota: number;
  own_quota: boolean;
  used: number | null;
  remaining: number | null;
  period_end: string | null;
  status: 'active' | 'revoked';
  revoked_at: string | null;
}

const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function freshEnv(t: TestContext, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return serviceEnv(join(tempDir(t, 'currency-rates-key-quotas-'), 'rates.db'), extra);
}

async function ok(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const result = await runCli(args, env);
  assert.equal(result.code, 0, describeRun(result));
  return result;
}

async function createKey(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return (await ok(['keys', 'create', ...args], env)).stdout.trim().split('\n').pop() ?? '';
}

async function listed(env: NodeJS.ProcessEnv): Promise<Listed[]> {
  return JSON.parse((await ok(['keys', 'list', '--json'], env)).stdout) as Listed[];
}

/** A refused command: the exit code, a message on stderr, nothing on stdout. */
function assertRefused(result: CliResult, code: number, message: RegExp): void {
  assert.equal(result.code, code, describeRun(result));
  assert.match(result.stderr, message, describeRun(result));
  assert.equal(result.stdout, '');
}

test('when keys are created with and without --quota, then create says the quota, and list shows it in the table and as JSON', async (t) => {
  const env = freshEnv(t, { QUOTA_LIMIT: '1000' });
  const created = await ok(['keys', 'create', '--name', 'acme', '--quota', '7'], env);
  assert.match(created.stdout, /^Created key 1 \(acme\) with a quota of 7 requests per period\. It is shown only this once:\ncr_\S+\n$/);
  await createKey(env, '--name', 'trial');

  const keys = await listed(env);
  for (const key of keys) assert.match(key.created_at, ISO_SECOND);
  assert.deepEqual(keys, [
    { id: 1, name: 'acme', created_at: keys[0]!.created_at, quota: 7, own_quota: true, used: 0, remaining: 7, period_end: null, status: 'active', revoked_at: null },
    { id: 2, name: 'trial', created_at: keys[1]!.created_at, quota: 1000, own_quota: false, used: 0, remaining: 1000, period_end: null, status: 'active', revoked_at: null },
  ]);

  const table = (await ok(['keys', 'list'], env)).stdout.split('\n');
  const created1 = keys[0]!.created_at.replace('T', ' ').replace('Z', '');
  const created2 = keys[1]!.created_at.replace('T', ' ').replace('Z', '');
  assert.deepEqual(table, [
    'ID  NAME   CREATED (UTC)        QUOTA           USED  REMAINING  PERIOD END (UTC)  STATUS',
    `1   acme   ${created1}  7               0     7          -                 active`,
    `2   trial  ${created2}  1000 (default)  0     1000       -                 active`,
    '',
  ]);
});

test('when a server counts requests, then keys list shows the used, remaining and period end its X-RateLimit headers show', async (t) => {
  const env = freshEnv(t);
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const key = await createKey(env, '--name', 'acme', '--quota', '7');
  const server = await spawnServer(t, env);
  let last;
  for (let i = 0; i < 3; i++) last = await apiGet(server.url, '/api/v1/currencies', key);
  assert.equal(last?.headers.get('x-ratelimit-remaining'), '4');
  const reset = Number(last?.headers.get('x-ratelimit-reset'));
  const [acme] = await listed(env);
  assert.deepEqual(
    { used: acme?.used, remaining: acme?.remaining, period_end: acme?.period_end },
    { used: 3, remaining: 4, period_end: new Date(reset * 1000).toISOString().replace('.000Z', 'Z') },
  );
  const row = (await ok(['keys', 'list'], env)).stdout.split('\n')[1]!;
  assert.match(row, new RegExp(`^1 +acme +\\S+ \\S+ +7 +3 +4 +${acme!.period_end!.replace('T', ' ').replace('Z', '')} +active$`));
});

test('when keys update changes a quota while a server runs, then the server applies it within 5 s; --quota default goes back to QUOTA_LIMIT', async (t) => {
  const env = freshEnv(t, { QUOTA_LIMIT: '50' });
  assert.equal((await runCli(['ingest', '--file', fixture('hist.csv')], env)).code, 0);
  const key = await createKey(env, '--name', 'acme', '--quota', '7');
  const server = await spawnServer(t, env);
  const limitIs = async (limit: string, what: string) => {
    const started = performance.now();
    await pollUntil(
      async () => ((await apiGet(server.url, '/api/v1/usage', key)).headers.get('x-ratelimit-limit') === limit ? true : undefined),
      { timeoutMs: 5_000, intervalMs: 50, what },
    );
    return Math.round(performance.now() - started);
  };
  await limitIs('7', 'the key to work with its quota');

  const updated = await ok(['keys', 'update', '1', '--quota', '300'], env);
  assert.equal(updated.stdout, 'Key 1 now has a quota of 300 requests per period; running servers apply it within seconds\n');
  t.diagnostic(`quota 300 served ${await limitIs('300', 'the quota 300')} ms after keys update exited`);
  assert.equal((await listed(env))[0]?.quota, 300);

  const cleared = await ok(['keys', 'update', '1', '--quota', 'default'], env);
  assert.equal(cleared.stdout, 'Key 1 now has the default quota (QUOTA_LIMIT); running servers apply it within seconds\n');
  t.diagnostic(`default quota served ${await limitIs('50', 'QUOTA_LIMIT again')} ms after keys update exited`);
  const [acme] = await listed(env);
  assert.deepEqual([acme?.quota, acme?.own_quota], [50, false]);
});

test('when --quota is not a whole number from 1 to 1000000000, then create and update exit 2 with usage and change nothing', async (t) => {
  const env = freshEnv(t);
  await createKey(env, '--name', 'acme', '--quota', '7');
  const bad = ['0', 'abc', '1.5', '-3', '+5', '1e3', '0x10', ' 5', '', '1000000001', '07', 'default'];
  for (const quota of bad) {
    // Both spellings, `--quota=-3` and `--quota -3` (a value starting with a dash, which parseArgs alone calls ambiguous).
    for (const spelled of quota.startsWith('-') ? [[`--quota=${quota}`], ['--quota', quota]] : [[`--quota=${quota}`]]) {
      const created = await runCli(['keys', 'create', '--name', 'x', ...spelled], env);
      assertRefused(created, 2, /^currency-rates keys: --quota must be a whole number from 1 to 1000000000\n[\s\S]*Usage: currency-rates keys/);
      if (quota === 'default') continue; // update takes it
      const updated = await runCli(['keys', 'update', '1', ...spelled], env);
      assertRefused(updated, 2, /^currency-rates keys: --quota must be a whole number from 1 to 1000000000, or default/);
    }
  }
  assertRefused(await runCli(['keys', 'update', '1'], env), 2, /update needs --quota/);
  assertRefused(await runCli(['keys', 'update', '--quota', '5'], env), 2, /update takes one key id/);
  assertRefused(await runCli(['keys', 'update', 'abc', '--quota', '5'], env), 2, /update takes one key id/);
  assertRefused(await runCli(['keys', 'update', '9999999999999999', '--quota', '5'], env), 2, /update takes one key id/);
  assertRefused(await runCli(['keys', 'revoke', '9007199254740993'], env), 2, /revoke takes one key id/);
  const keys = await listed(env);
  assert.equal(keys.length, 1, 'no key was created');
  assert.equal(keys[0]?.quota, 7, 'the quota is unchanged');
  // The largest quota is taken.
  await ok(['keys', 'update', '1', '--quota', '1000000000'], env);
  assert.equal((await listed(env))[0]?.quota, 1_000_000_000);
});

test('when keys update names an unknown or revoked key, then it exits 1 naming the id and changes nothing', async (t) => {
  const env = freshEnv(t);
  await createKey(env, '--name', 'acme', '--quota', '7');
  await ok(['keys', 'revoke', '1'], env);
  assertRefused(await runCli(['keys', 'update', '1', '--quota', '9'], env), 1, /^currency-rates keys: no active key with id 1\n$/);
  assertRefused(await runCli(['keys', 'update', '42', '--quota', '9'], env), 1, /^currency-rates keys: no active key with id 42\n$/);
  assert.equal((await listed(env))[0]?.quota, 7);
});

test('when keys revoke --name names one active key, then it is revoked; an unknown or shared name exits 1 and revokes nothing', async (t) => {
  const env = freshEnv(t);
  await createKey(env, '--name', 'acme');
  await createKey(env, '--name', 'twin');
  await createKey(env, '--name', 'twin');
  await createKey(env, '--name', 'solo');

  assertRefused(await runCli(['keys', 'revoke', '--name', 'nobody'], env), 1, /^currency-rates keys: no active key named "nobody"\n$/);
  assertRefused(
    await runCli(['keys', 'revoke', '--name', 'twin'], env),
    1,
    /^currency-rates keys: 2 active keys are named "twin" \(ids 2, 3\); revoke one by its id\n$/,
  );
  assertRefused(await runCli(['keys', 'revoke', '--name', 'Acme'], env), 1, /no active key named "Acme"/);
  assertRefused(await runCli(['keys', 'revoke', '1', '--name', 'acme'], env), 2, /revoke takes one key id, or --name NAME \(not both\)/);
  assertRefused(await runCli(['keys', 'revoke'], env), 2, /revoke takes one key id, or --name NAME/);
  assertRefused(await runCli(['keys', 'revoke', '--name', 'bad\x1b[31m'], env), 2, /--name must be 1 to 100 printable characters/);
  assert.deepEqual((await listed(env)).map((key) => key.status), ['active', 'active', 'active', 'active'], 'nothing was revoked');

  assert.equal((await ok(['keys', 'revoke', '--name', 'solo'], env)).stdout, 'Revoked key 4 (solo)\n');
  assert.equal((await ok(['keys', 'revoke', '3'], env)).stdout, 'Revoked key 3\n');
  // The name is now borne by one active key only: a revoked key does not make it ambiguous.
  assert.equal((await ok(['keys', 'revoke', '--name', 'twin'], env)).stdout, 'Revoked key 2 (twin)\n');
  assertRefused(await runCli(['keys', 'revoke', '--name', 'twin'], env), 1, /no active key named "twin"/);
  const keys = await listed(env);
  assert.deepEqual(keys.map((key) => key.status), ['active', 'revoked', 'revoked', 'revoked']);
  for (const key of keys.slice(1)) {
    assert.match(key.revoked_at ?? '', ISO_SECOND);
    assert.deepEqual([key.used, key.remaining, key.period_end], [null, null, null], 'a revoked key shows no usage');
  }
});
