import cluster, { type Worker } from 'node:cluster';
import type { MetricFamilyJSON } from './metric-json.js';

/**
 * With WORKERS > 1 a scrape reaches one worker, but /metrics reports the whole instance
 * (DECISIONS §12): the worker asks the primary over the cluster's IPC channel, the primary asks
 * every serving worker for its own metrics as JSON, sums them with prom-client's
 * AggregatorRegistry (each family by its `aggregator`: counters and histograms summed, facts
 * about the loaded data not) and answers the text the worker then sends. Never one worker's
 * share: when a worker's part does not arrive, the scrape fails rather than show less.
 *
 * prom-client's own `clusterMetrics()` is not used: it needs a listener in every worker from
 * its start (prom-client loaded at start, which it would slow down) and asks workers still
 * starting, which have none and make the scrape wait for its timeout.
 */

/** Worker → primary: a scrape wants the instance's exposition. */
const ASK = 'currency-rates:metrics-ask';
/** Primary → the asking worker: the exposition, or why there is none. */
const ANSWER = 'currency-rates:metrics-answer';
/** Primary → every serving worker: send your own metrics. */
const COLLECT = 'currency-rates:metrics-collect';
/** Worker → primary: its own metrics as JSON. */
const PART = 'currency-rates:metrics-part';

/** How long the primary waits for every worker's part. */
const COLLECT_TIMEOUT_MS = 4000;
/** How long a worker waits for the primary's answer (longer: the primary gives up first and says why). */
const ASK_TIMEOUT_MS = 5000;

/**
 * prom-client's process metrics set their own aggregator (summed unless they say otherwise); these
 * are the same in every worker, where a sum would mean nothing.
 */
const SAME_IN_EVERY_WORKER = new Set(['process_max_fds']);

export interface Exposition {
  body: string;
  contentType: string;
}

interface Message {
  type: string;
  id: number;
}
interface AskMessage extends Message {
  type: typeof ASK;
}
interface AnswerMessage extends Message {
  type: typeof ANSWER;
  exposition?: Exposition;
  error?: string;
}
interface CollectMessage extends Message {
  type: typeof COLLECT;
}
interface PartMessage extends Message {
  type: typeof PART;
  metrics?: MetricFamilyJSON[];
  error?: string;
}

const isMessage = <T extends Message>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as Message).type === type && typeof (message as Message).id === 'number';

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * In a worker: answers the primary's collections with `own()` (this process's metrics), and
 * returns how a scrape gets the instance's exposition from the primary.
 */
export function workerMetrics(own: () => Promise<MetricFamilyJSON[]>): { exposition(): Promise<Exposition> } {
  const send = (message: AskMessage | PartMessage) =>
    new Promise<void>((resolve, reject) => {
      if (process.send === undefined) return reject(new Error('no IPC channel to the primary'));
      process.send(message, undefined, {}, (err: Error | null) => (err ? reject(err) : resolve()));
    });
  const waiting = new Map<number, (answer: AnswerMessage) => void>();
  let asked = 0;

  process.on('message', (message: unknown) => {
    if (isMessage<CollectMessage>(message, COLLECT)) {
      own().then(
        (metrics) => send({ type: PART, id: message.id, metrics }),
        (err: unknown) => send({ type: PART, id: message.id, error: describe(err) }),
      ).catch(() => undefined); // the primary is gone: nobody to tell
    } else if (isMessage<AnswerMessage>(message, ANSWER)) {
      waiting.get(message.id)?.(message);
    }
  });

  return {
    exposition: () => {
      const id = asked++;
      let timer: NodeJS.Timeout | undefined;
      return new Promise<Exposition>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the primary did not answer within ${ASK_TIMEOUT_MS} ms`)), ASK_TIMEOUT_MS);
        waiting.set(id, (answer) => (answer.exposition ? resolve(answer.exposition) : reject(new Error(answer.error ?? 'no exposition'))));
        send({ type: ASK, id }).catch(reject);
      }).finally(() => {
        clearTimeout(timer);
        waiting.delete(id);
      });
    },
  };
}

/**
 * In the primary: answers every worker's ASK with the sum of the metrics of `serving()` (the
 * workers that are listening), collected afresh for each scrape.
 */
export function aggregateWorkerMetrics(serving: () => Worker[]): void {
  let collections = 0;
  /** Per collection: the workers whose part has not arrived, and what to do with one that has. */
  const pending = new Map<number, { awaited: Set<Worker>; arrived(worker: Worker, part: PartMessage | undefined): void }>();

  const collect = (): Promise<MetricFamilyJSON[][]> => {
    const id = collections++;
    const workers = serving().filter((worker) => worker.isConnected());
    const parts: MetricFamilyJSON[][] = [];
    let timer: NodeJS.Timeout | undefined;
    return new Promise<MetricFamilyJSON[][]>((resolve, reject) => {
      const awaited = new Set(workers);
      const settle = () => {
        if (awaited.size === 0) resolve(parts);
      };
      // `part` undefined: the worker stopped before answering (its counts went with it).
      const arrived = (worker: Worker, part: PartMessage | undefined) => {
        if (!awaited.delete(worker)) return;
        if (part?.error !== undefined) return reject(new Error(`worker ${worker.process.pid}: ${part.error}`));
        if (part?.metrics) parts.push(part.metrics);
        settle();
      };
      pending.set(id, { awaited, arrived });
      timer = setTimeout(
        () => reject(new Error(`no metrics from worker ${[...awaited].map((worker) => worker.process.pid).join(', ')} within ${COLLECT_TIMEOUT_MS} ms`)),
        COLLECT_TIMEOUT_MS,
      );
      for (const worker of workers) {
        worker.send({ type: COLLECT, id } satisfies CollectMessage, undefined, (err: Error | null) => {
          if (err) arrived(worker, undefined);
        });
      }
      settle();
    }).finally(() => {
      clearTimeout(timer);
      pending.delete(id);
    });
  };

  const exposition = async (): Promise<Exposition> => {
    const parts = await collect();
    if (parts.length === 0) throw new Error('no worker is serving');
    for (const family of parts.flat()) if (SAME_IN_EVERY_WORKER.has(family.name)) family.aggregator = 'first';
    const { AggregatorRegistry } = await import('prom-client');
    const registry = AggregatorRegistry.aggregate(parts);
    return { body: await registry.metrics(), contentType: registry.contentType };
  };

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage<PartMessage>(message, PART)) {
      pending.get(message.id)?.arrived(worker, message);
    } else if (isMessage<AskMessage>(message, ASK)) {
      const reply = (answer: Omit<AnswerMessage, 'type' | 'id'>) => {
        if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer } satisfies AnswerMessage, undefined, () => undefined);
      };
      exposition().then(
        (result) => reply({ exposition: result }),
        (err: unknown) => reply({ error: describe(err) }),
      );
    }
  });
  cluster.on('exit', (worker) => {
    for (const { arrived } of pending.values()) arrived(worker, undefined);
  });
}
