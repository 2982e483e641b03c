import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QuotaPolicy } from '../../src/domain/quota.js';
import type { QuotaKey } from '../../src/storage/ports.js';
import { TurnBatch, type PendingConsume, type TurnBatchOptions } from '../../src/storage/turn-batch.js';
import { onePerTurn } from '../helpers/event-loop-turns.js';

/**
 * How a batch of quota requests is cut. Requests are added on consecutive turns of the event loop
 * (each from a setImmediate, standing for requests read by successive polls), and the batches
 * handed to `decide` are recorded by the key ids they hold.
 */

const POLICY: QuotaPolicy = { limit: 1000, periodMs: 86_400_000 };
const keyNumbered = (id: number): QuotaKey => ({ id, hash: `hash-${id}` });

function recordingBatch(options?: TurnBatchOptions) {
  const batches: number[][] = [];
  const turn = new TurnBatch((batch: PendingConsume[]) => {
    batches.push(batch.map((request) => request.key.id));
    batch.forEach((request, i) => request.resolve({ allowed: true, used: i + 1, periodStart: 0 }));
  }, options);
  return { turn, batches };
}

/** Adds one request per turn for `ids`, starting in this turn; resolves when every one is decided. */
async function addOnePerTurn(turn: TurnBatch, ids: number[], beforeEach: () => void = () => {}): Promise<void> {
  await onePerTurn(ids.length, (i) => {
    beforeEach();
    return turn.add(keyNumbered(ids[i]!), 0, POLICY);
  });
}

test('without gathering, then each turn is its own batch', async () => {
  const { turn, batches } = recordingBatch();
  await addOnePerTurn(turn, [1, 2, 3]);
  assert.deepEqual(batches, [[1], [2], [3]]);
});

test('with gathering, when each turn brings another request, then they wait for one batch, in arrival order', async () => {
  const { turn, batches } = recordingBatch({ gatherMs: 1, monotonicMs: () => 0 });
  await addOnePerTurn(turn, [1, 2, 3, 4, 5]);
  assert.deepEqual(batches, [[1, 2, 3, 4, 5]]);
});

test('with gathering, when a turn brings nothing, then the batch is decided and the next request starts a new one', async () => {
  const { turn, batches } = recordingBatch({ gatherMs: 1, monotonicMs: () => 0 });
  await Promise.all([turn.add(keyNumbered(1), 0, POLICY), turn.add(keyNumbered(2), 0, POLICY)]);
  assert.deepEqual(batches, [[1, 2]]);
  await Promise.all([turn.add(keyNumbered(3), 0, POLICY)]);
  assert.deepEqual(batches, [[1, 2], [3]]);
});

test('with gathering, when requests keep coming every turn, then a batch is cut once gatherMs has passed since its first', async () => {
  // The clock moves 0.25 ms per turn: a batch that began at t takes the requests of the turns
  // before t + 1 ms, and is decided at the first look at or past it.
  let clock = 0;
  const { turn, batches } = recordingBatch({ gatherMs: 1, monotonicMs: () => clock });
  await addOnePerTurn(turn, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], () => (clock += 0.25));
  assert.deepEqual(batches.flat(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 'every request decided once, in order');
  assert.ok(batches.length >= 3, `cut into batches: ${JSON.stringify(batches)}`);
  for (const batch of batches) assert.ok(batch.length <= 5, `no batch outgrows its 1 ms: ${JSON.stringify(batches)}`);
});

test('when a batch is put back (its store was busy), then it is decided first, with what arrived since behind it', async () => {
  let signalBusy!: () => void;
  const wasBusy = new Promise<void>((resolve) => (signalBusy = resolve));
  let busy = true;
  const batches: number[][] = [];
  const turn: TurnBatch = new TurnBatch(
    (batch) => {
      if (busy) {
        busy = false;
        turn.putBack(batch);
        setTimeout(() => turn.decideNow(), 20);
        signalBusy();
        return;
      }
      batches.push(batch.map((request) => request.key.id));
      for (const request of batch) request.resolve({ allowed: true, used: 1, periodStart: 0 });
    },
    { gatherMs: 1, monotonicMs: () => 0 },
  );
  const first = turn.add(keyNumbered(1), 0, POLICY);
  await wasBusy;
  const later = [turn.add(keyNumbered(2), 0, POLICY), turn.add(keyNumbered(3), 0, POLICY)];
  await Promise.all([first, ...later]);
  assert.deepEqual(batches, [[1, 2, 3]]);
});
