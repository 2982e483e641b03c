import { executionAsyncResource } from 'node:async_hooks';

/** Referenced for the life of the process: what keeps the maps below alive. */
const held: object[] = [];

/**
 * Keeps one of the objects `process.nextTick` queues alive for the life of the process, so that
 * V8 never collects the hidden classes (maps) those tick objects share.
 *
 * Why: Node makes each tick object with a literal whose keys are computed
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 records one map
 * per key of such a literal and, as soon as a later call brings any other map, gives up on that
 * key for good (megamorphic: no polymorphic state for this kind of store). Those maps are held
 * only by live tick objects, and a tick object lives for less than a turn. So a full garbage
 * collection that happens to find none alive frees the maps, the next tick object gets new ones,
 * and from then on every `process.nextTick` goes through V8's runtime instead of compiled code:
 * ~260 instead of ~55 ns per tick here, and an answer takes nine ticks in Node's streams. Under
 * callgrind, 133k instead of 97k main-thread instructions per rates/latest answer; in perf
 * samples of a server under load, 5–7 % of its CPU. When (and whether) that collection comes
 * depends on start-up timing: 16 of 17 servers started from a shell here had fallen into it
 * within seconds of load. `test/tick-object-maps.test.ts` shows both states.
 *
 * A tick's callback runs with its tick object as the execution async resource (public API), so
 * holding one needs no async hook. Call it first thing in a process, before any full collection:
 * the object is taken in the first tick after the call.
 */
export function holdTickObjectMaps(): void {
  process.nextTick(() => held.push(executionAsyncResource()));
}
