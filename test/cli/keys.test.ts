import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { apiGet, pollUntil, spawnServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/test-server.js';

/** DECISIONS §4: keys are managed by the CLI, shown once, revocable, never logged. */

/** A new database file (created by the first command), with the fixture history when asked. */
async function freshDatabase(t: TestContext, withRates = false) {
  const dir = tempDir(t, 'currency-rates-keys-');
  const env = serviceEnv(join(dir, 'rates.db'));
  if (withRates) {
    const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
    assert.equal(ingested.code, 0, describeRun(ingested));
  }
  return { dir, env };
}

async function createKey(env: NodeJS.ProcessEnv, name: string): Promise<{ key: string; stdout: string }> {
  const created = await runCli(['keys', 'create', '--name', name], env);
  assert.equal(created.code, 0, describeRun(created));
  const lines = created.stdout.replace(/\n$/, '').split('\n');
  return { key: lines[lines.length - 1] ?? '', stdout: created.stdout };
}

/** Bits a random string of this alphabet can carry at most per character. */
function bitsPerChar(text: string): number {
  if (/^[0-9a-f]*$/i.test(text)) return 4;
  if (/^[A-Z2-7]*$/.test(text)) return 5;
  if (/^[A-Za-z0-9_-]*$/.test(text)) return 6;
  return Math.log2(94);
}

/** The id on the `keys list` line that names `name` (the first all-digit field of that line). */
function idOf(listing: string, name: string): string | undefined {
  const line = listing.split('\n').find((row) => row.split(/\s+/).includes(name));
  return line?.split(/\s+/).find((field) => /^\d+$/.test(field));
}

test('when keys are created with --name and listed, then each key is alone on the last line (printable, no spaces, >= 128 bits) and the list shows ids and names, never keys', async (t) => {
  const { env } = await freshDatabase(t);
  const first = await createKey(env, 'ci');
  const second = await createKey(env, 'backup'); // after the first: the database is created once
  for (const { key } of [first, second]) {
    assert.match(key, /^[\x21-\x7e]+$/, `the last line is one printable word: ${JSON.stringify(key)}`);
  }
  assert.notEqual(first.key, second.key, 'two keys differ');
  // Whatever fixed prefix the keys share is not random; the rest must carry >= 128 bits.
  let shared = 0;
  while (shared < first.key.length && first.key[shared] === second.key[shared]) shared++;
  const random = first.key.slice(Math.min(shared, 8));
  const bits = random.length * bitsPerChar(random);
  assert.ok(bits >= 128, `key ${first.key}: about ${bits.toFixed(0)} random bits, expected >= 128`);

  const listed = await runCli(['keys', 'list'], env);
  assert.equal(listed.code, 0, describeRun(listed));
  assert.ok(idOf(listed.stdout, 'ci'), `an id on the line of "ci":\n${listed.stdout}`);
  assert.ok(idOf(listed.stdout, 'backup'), `an id on the line of "backup":\n${listed.stdout}`);
  assert.notEqual(idOf(listed.stdout, 'ci'), idOf(listed.stdout, 'backup'));
  for (const { key } of [first, second]) {
    assert.ok(!listed.stdout.includes(key) && !listed.stderr.includes(key), 'the key is not listed');
  }
});

test('when a key is created while a server runs, then it works over HTTP; when it is revoked, then the server refuses it within 5 s and revoking it again fails', async (t) => {
  const { env } = await freshDatabase(t, true);
  const server = await spawnServer(t, env);
  const { key } = await createKey(env, 'ci');

  const accepted = await pollUntil(
    async () => {
      const answer = await apiGet(server.url, '/api/v1/rates/latest?symbols=USD', key);
      return answer.status === 200 ? answer : undefined;
    },
    { timeoutMs: 5000, what: 'the new key to be accepted' },
  );
  assert.deepEqual(accepted.value.json, { base: 'EUR', date: '2026-04-13', rates: { USD: '1.168400' } });

  const listed = await runCli(['keys', 'list'], env);
  const id = idOf(listed.stdout, 'ci');
  assert.ok(id, `an id for "ci":\n${listed.stdout}`);
  const revoked = await runCli(['keys', 'revoke', id], env);
  assert.equal(revoked.code, 0, describeRun(revoked));

  const refused = await pollUntil(
    async () => {
      const answer = await apiGet(server.url, '/api/v1/rates/latest', key);
      return answer.status === 401 ? answer : undefined;
    },
    { timeoutMs: 5000, intervalMs: 100, what: 'the revoked key to be refused' },
  );
  t.diagnostic(`revoked key refused after ${Math.round(refused.ms)} ms`);
  assert.deepEqual(refused.value.json, { statusCode: 401, message: 'Invalid API key', error: 'Unauthorized' });
  assert.equal((await apiGet(server.url, '/api/v1/currencies', key)).status, 401, 'it stays refused');

  const again = await runCli(['keys', 'revoke', id], env);
  assert.ok(again.code !== 0 && again.code !== null, `revoking twice: ${describeRun(again)}`);
  assert.notEqual(again.stderr.trim(), '', 'revoking twice says why');
});

test('when an unknown id or a non-number is revoked, then the command exits non-zero with a message', async (t) => {
  const { env } = await freshDatabase(t);
  const unknown = await runCli(['keys', 'revoke', '987654'], env);
  assert.ok(unknown.code !== 0 && unknown.code !== null, describeRun(unknown));
  assert.match(unknown.stderr, /987654/, 'the message names the id');
  const notNumber = await runCli(['keys', 'revoke', 'abc'], env);
  assert.ok(notNumber.code !== 0 && notNumber.code !== null, describeRun(notNumber));
  assert.match(notNumber.stderr, /usage/i, 'a malformed id prints usage');
});

test('when a key is used, misused and revoked against a server logging at trace level, then the plain key never appears in its logs', async (t) => {
  const { env } = await freshDatabase(t);
  const server = await spawnServer(t, { ...env, LOG_LEVEL: 'trace' });
  const { key } = await createKey(env, 'ci');
  await pollUntil(async () => ((await apiGet(server.url, '/api/v1/currencies', key)).status === 200 ? true : undefined), {
    timeoutMs: 5000,
    what: 'the key to work',
  });
  const attempts: Record<string, string>[] = [
    { authorization: `Bearer ${key}` },
    { authorization: `bearer ${key}` },
    { authorization: `Bearer ${key} extra` },
    { authorization: `Basic ${key}` },
    { authorization: key },
    { authorization: `Bearer ${key}x` },
  ];
  for (const path of ['/api/v1/rates/latest', '/api/v1/convert?from=USD&to=XXX&amount=1', '/api/v1/rates/2026-13-01', '/nope']) {
    for (const headers of attempts) {
      await (await fetch(server.url + path, { headers, signal: AbortSignal.timeout(5000) })).arrayBuffer();
    }
  }
  const id = idOf((await runCli(['keys', 'list'], env)).stdout, 'ci');
  assert.ok(id);
  assert.equal((await runCli(['keys', 'revoke', id], env)).code, 0);
  await pollUntil(async () => ((await apiGet(server.url, '/api/v1/currencies', key)).status === 401 ? true : undefined), {
    timeoutMs: 5000,
    intervalMs: 100,
    what: 'the revoked key to be refused',
  });
  const stopped = await server.stop('SIGTERM');
  assert.equal(stopped.code, 0);
  const logs = server.stdout() + server.stderr();
  assert.ok(logs.includes('/api/v1/rates/latest'), 'the server did log the requests (the check below means something)');
  assert.ok(!logs.includes(key), 'the plain key is absent from stdout and stderr');
  // Nor a long piece of it (a truncated key is still a leak).
  const piece = key.slice(-20);
  assert.ok(!logs.includes(piece), `no 20-character piece of the key in the logs (${piece})`);
});
