import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RemoteClock } from '../../src/storage/remote-clock.js';

test("when readings of a store's clock (Redis's here) come in, then the lower bound is the best of the last minute, never ahead of any reading", () => {
  let local = 1_000;
  const clock = new RemoteClock(() => local);
  assert.equal(clock.lowerBound(), undefined, 'no reading yet');
  // Redis read 50_000 at or before local 1_000 (the reply took a while): Redis is at least 50_000 then.
  clock.observe(50_000, 1_000);
  assert.equal(clock.lowerBound(), 50_000);
  local = 1_500;
  assert.equal(clock.lowerBound(), 50_500, 'runs on with the local monotonic clock');
  // A slower reading (a lower offset) does not lower the bound; a quicker one raises it.
  clock.observe(50_200, 1_500);
  assert.equal(clock.lowerBound(), 50_500);
  clock.observe(50_600, 1_500);
  assert.equal(clock.lowerBound(), 50_600);
  // Readings older than a minute are dropped (drift): then there is none until the next.
  local = 100_000;
  assert.equal(clock.lowerBound(), undefined);
  clock.observe(149_000, 100_000);
  assert.equal(clock.lowerBound(), 149_000);
  clock.reset();
  assert.equal(clock.lowerBound(), undefined, 'a new connection starts over');
});
