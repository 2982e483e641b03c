import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeRun, runCli, serviceEnv } from '../helpers/cli.js';
import { startProductionServer, tempDir } from '../helpers/test-server.js';

/**
 * DECISIONS §11: the files and folders the service creates for SQLite (the database, its -wal and
 * -shm, the folders on the way to it) are 0600 / 0700, whatever the umask it runs under. The
 * umask of this test process (and so of the CLI it runs) is 000: every mode below is the
 * service's own doing.
 */
process.umask(0o000);

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

test('when the CLI creates a database on a fresh path, then its folders are 0700 and its file 0600, even under umask 000', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'fresh', 'nested', 'rates.db');
  const result = await runCli(['migrate'], serviceEnv(db));
  assert.equal(result.code, 0, describeRun(result));
  assert.equal(mode(join(dir, 'fresh')), '0700');
  assert.equal(mode(join(dir, 'fresh', 'nested')), '0700');
  assert.equal(mode(db), '0600');

  const keys = await runCli(['keys', 'create', '--name', 'ci'], serviceEnv(db));
  assert.equal(keys.code, 0, describeRun(keys));
  assert.equal(mode(db), '0600', 'a second command leaves it so');
});

test('when a server runs on a fresh database, then the database, its -wal and its -shm are 0600 while it runs', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'data', 'rates.db');
  const { server } = await startProductionServer({ DATABASE_URL: `sqlite:${db}` });
  t.after(() => server.close());
  assert.equal(mode(join(dir, 'data')), '0700');
  for (const path of [db, `${db}-wal`, `${db}-shm`]) {
    assert.ok(existsSync(path), `${path} exists while the server runs`);
    assert.equal(mode(path), '0600', path);
  }
});

test('when the folder and the database already exist, then their modes are left as the operator set them', async (t) => {
  const dir = tempDir(t);
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o750);
  const db = join(shared, 'rates.db');
  writeFileSync(db, '');
  chmodSync(db, 0o640);
  const result = await runCli(['migrate'], serviceEnv(db));
  assert.equal(result.code, 0, describeRun(result));
  assert.equal(mode(shared), '0750');
  assert.equal(mode(db), '0640');
});
