import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';
import { AppError } from '../shared/errors.ts';
import type { Metrics } from './metrics.ts';

/**
 * `serve --processes N`: a scrape of `/metrics` reaches whichever process the operating system
 * hands the connection to, so each process asks the primary, the primary gathers every
 * process's registry over the cluster's IPC channel and sums them (prom-client's aggregation:
 * counters and histograms summed, gauges as each metric declares), and the asking process
 * answers with the whole. One scrape sees all processes; counters never go down between two
 * scrapes answered by different processes.
 */

/** A scrape that does not complete in this time answers 503 instead of a partial sum. */
const GATHER_TIMEOUT_MS = 4000;

type Snapshot = MetricObjectWithValues<MetricValue<string>>[];

type Message =
  | { type: 'rapport:metrics:scrape'; id: number }
  | { type: 'rapport:metrics:collect'; id: number }
  | { type: 'rapport:metrics:snapshot'; id: number; metrics?: Snapshot; error?: string }
  | { type: 'rapport:metrics:text'; id: number; text?: string; error?: string };

const unavailable = (reason: string) => new AppError('unavailable', `The metrics of all API processes could not be gathered: ${reason}.`);

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' && value.type.startsWith('rapport:metrics:');
}

/**
 * In the primary: answers every process's scrape with the sum over all processes and the
 * primary's own registry. Returns the same gathering for the primary's own use (its operations
 * listener's /metrics).
 */
export function aggregateWorkerMetrics(own: Registry): () => Promise<string> {
  let nextId = 0;
  const gathering = new Map<number, { pending: Set<number>; snapshots: Snapshot[]; done: (error: string | null) => void }>();

  // A process that exits while a scrape gathers is not waited for.
  cluster.on('exit', (worker) => {
    for (const gather of gathering.values()) {
      gather.pending.delete(worker.id);
      if (gather.pending.size === 0) gather.done(null);
    }
  });

  const gather = () =>
    new Promise<string>((resolve, reject) => {
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
      if (workers.length === 0) return reject(new Error('no API process is running'));
      const id = nextId++;
      const timer = setTimeout(() => finish(`not every API process answered within ${GATHER_TIMEOUT_MS} ms`), GATHER_TIMEOUT_MS);
      const finish = (error: string | null) => {
        const entry = gathering.get(id);
        if (!entry) return;
        gathering.delete(id);
        clearTimeout(timer);
        if (error !== null) return reject(new Error(error));
        own
          .getMetricsAsJSON()
          .then((snapshot) => AggregatorRegistry.aggregate([...entry.snapshots, snapshot]).metrics())
          .then(resolve, reject);
      };
      gathering.set(id, { pending: new Set(workers.map((w) => w.id)), snapshots: [], done: finish });
      for (const w of workers) w.send({ type: 'rapport:metrics:collect', id } satisfies Message);
    });

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'rapport:metrics:snapshot') {
      const entry = gathering.get(message.id);
      if (!entry) return;
      if (message.error !== undefined || !message.metrics) return entry.done(message.error ?? 'no metrics');
      entry.snapshots.push(message.metrics);
      entry.pending.delete(worker.id);
      if (entry.pending.size === 0) entry.done(null);
      return;
    }
    if (message.type !== 'rapport:metrics:scrape') return;
    const asker = worker;
    const scrapeId = message.id;
    const reply = (answer: { text?: string; error?: string }) => {
      if (asker.isConnected()) asker.send({ type: 'rapport:metrics:text', id: scrapeId, ...answer } satisfies Message);
    };
    gather().then(
      (text) => reply({ text }),
      (failure: unknown) => reply({ error: failure instanceof Error ? failure.message : String(failure) }),
    );
  });
  return gather;
}

/**
 * In a process started by `serve --processes N`: hands this process's metrics to the primary
 * when it gathers, and makes `metrics.text()` answer with the sum over all processes. Returns
 * the function that stops listening (at shutdown).
 */
export function shareMetricsWithPrimary(metrics: Metrics): () => void {
  const send = (message: Message) => process.send?.(message);
  let nextId = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const onMessage = (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'rapport:metrics:collect') {
      metrics.registry.getMetricsAsJSON().then(
        (snapshot) => send({ type: 'rapport:metrics:snapshot', id: message.id, metrics: snapshot }),
        (error: unknown) => send({ type: 'rapport:metrics:snapshot', id: message.id, error: error instanceof Error ? error.message : String(error) }),
      );
    } else if (message.type === 'rapport:metrics:text') {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.text !== undefined) waiter?.resolve(message.text);
      else waiter?.reject(unavailable(message.error ?? 'the primary process did not answer'));
    }
  };
  process.on('message', onMessage);
  metrics.useSource(
    () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        // The primary times out first; this one only covers a primary that is gone.
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(unavailable('the primary process did not answer'));
        }, GATHER_TIMEOUT_MS + 1000);
        waiting.set(id, {
          resolve: (text) => {
            clearTimeout(timer);
            resolve(text);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        send({ type: 'rapport:metrics:scrape', id });
      }),
  );
  return () => process.off('message', onMessage);
}
