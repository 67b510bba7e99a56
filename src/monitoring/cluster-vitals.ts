import cluster, { type Worker } from 'node:cluster';
import { createVitalSignsBuffer, writeVitalSigns, type VitalSigns, type VitalTimes } from './vital-signs.ts';

/**
 * `serve --processes N` with RAPPORT_METRICS_PORT: the primary serves the operations listener
 * (src/http/ops-listener/) for the whole service, its own event loop being idle. Each API process sends
 * its vital signs every quarter of a second; the primary's shared buffer holds the WORST of them
 * (the oldest beat, the oldest database answer), so `/healthz` says 503 as soon as any one
 * process has stalled, and 503 "not started" while none has reported yet. A process that exits
 * is forgotten; its replacement counts from its first report.
 */

const REPORT_INTERVAL_MS = 250;

interface VitalsMessage {
  type: 'rapport:vitals';
  /** `process.hrtime.bigint()` readings as decimal strings (the IPC channel carries JSON). */
  loopBeatAt: string;
  databaseAnsweredAt: string;
}

function isVitalsMessage(value: unknown): value is VitalsMessage {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'rapport:vitals';
}

/** In an API process: reports its signs to the primary until the returned function is called. */
export function reportVitalsToPrimary(vitals: VitalSigns): () => void {
  const timer = setInterval(() => {
    const times = vitals.times();
    process.send?.({ type: 'rapport:vitals', loopBeatAt: String(times.loopBeatAt), databaseAnsweredAt: String(times.databaseAnsweredAt) } satisfies VitalsMessage);
  }, REPORT_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** In the primary: the buffer the operations listener reads, kept to the worst of the API processes' signs. */
export function gatherWorkerVitals(): SharedArrayBuffer {
  const buffer = createVitalSignsBuffer();
  const reported = new Map<number, VitalTimes>();
  const update = () => {
    const all = [...reported.values()];
    const oldest = (pick: (times: VitalTimes) => bigint) => (all.length === 0 ? 0n : all.map(pick).reduce((a, b) => (b < a ? b : a)));
    writeVitalSigns(buffer, { loopBeatAt: oldest((t) => t.loopBeatAt), databaseAnsweredAt: oldest((t) => t.databaseAnsweredAt) });
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isVitalsMessage(message)) return;
    reported.set(worker.id, { loopBeatAt: BigInt(message.loopBeatAt), databaseAnsweredAt: BigInt(message.databaseAnsweredAt) });
    update();
  });
  cluster.on('exit', (worker) => {
    reported.delete(worker.id);
    update();
  });
  return buffer;
}
