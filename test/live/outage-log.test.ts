import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutageLog } from '../../src/live/outage-log.js';
import { StoreUnavailableError } from '../../src/storage/ports.js';

function recorder() {
  const lines: { level: 'warn' | 'info'; msg: string; err?: unknown }[] = [];
  const log = {
    warn: (obj: unknown, msg?: string) => void lines.push(typeof obj === 'string' ? { level: 'warn', msg: obj } : { level: 'warn', msg: msg!, err: (obj as { err: unknown }).err }),
    info: (msg: unknown) => void lines.push({ level: 'info', msg: String(msg) }),
  };
  return { lines, log: log as unknown as ConstructorParameters<typeof OutageLog>[0] };
}

const down = (backend: string, message: string) => new StoreUnavailableError(backend, { cause: new Error(message) });

test('when many calls fail during one outage, then it is logged once with the real cause, and once when it ends', () => {
  const { lines, log } = recorder();
  let now = 0;
  const outages = new OutageLog(log, () => now);
  for (let i = 0; i < 500; i++) outages.unavailable(down('Redis', 'connect ECONNREFUSED 127.0.0.1:6379'), 'quota.consume');
  now = 4_200;
  outages.available('Redis', 'quota.consume');
  outages.available('Redis', 'quota.consume');
  assert.deepEqual(lines.map(({ level, msg }) => ({ level, msg })), [
    { level: 'warn', msg: 'Redis is unreachable: connect ECONNREFUSED 127.0.0.1:6379' },
    { level: 'info', msg: 'Redis is reachable again after 4.2 s' },
  ]);
  assert.deepEqual(lines[0]!.err, { type: 'StoreUnavailableError', message: 'Redis is unavailable', cause: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:6379' } });
});

test('when writes fail while reads of the same backend succeed (a SQLite write lock), then the outage lasts until a write succeeds', () => {
  const { lines, log } = recorder();
  const outages = new OutageLog(log);
  outages.unavailable(down('SQLite', 'database is locked'), 'quota.consume');
  outages.available('SQLite', 'rates.version');
  outages.available('SQLite', 'keys.version');
  assert.equal(outages.isDown('SQLite'), true);
  outages.available('SQLite', 'quota.consume');
  assert.equal(outages.isDown('SQLite'), false);
  assert.equal(lines.length, 2);
});

test('when an occasional operation failed (a merge), then the backend\'s next success of any operation ends the outage', () => {
  const { lines, log } = recorder();
  const outages = new OutageLog(log);
  outages.unavailable(down('PostgreSQL', 'Connection terminated unexpectedly'), 'rates.merge');
  outages.available('Redis', 'quota.consume');
  assert.equal(outages.isDown('PostgreSQL'), true, 'another backend says nothing of this one');
  outages.available('PostgreSQL', 'keys.version');
  assert.equal(outages.isDown('PostgreSQL'), false);
  assert.deepEqual(lines.map((line) => line.level), ['warn', 'info']);
});
