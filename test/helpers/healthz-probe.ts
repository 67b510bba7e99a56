import { Worker } from 'node:worker_threads';

/**
 * GET /healthz due every 10 ms, each sent whether or not the last one has answered and timed
 * from the moment it was due, from a thread of its own (the caller's thread is busy sending
 * uploads and would add its own delays). A stall of the service's event loop then delays every
 * probe due during it: a high percentile says for how much of the time the service was slow.
 * A probe that fails or is not a 200 counts as Infinity.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const times = [];
let stop = false;
parentPort.on('message', () => { stop = true; });
const start = performance.now();
let sent = 0;
const inFlight = new Set();
function tick() {
  if (stop) {
    Promise.all(inFlight).then(() => parentPort.postMessage(times));
    return;
  }
  const due = start + sent * workerData.everyMs;
  sent += 1;
  const probe = fetch(workerData.baseUrl + '/healthz')
    .then(async (response) => { await response.arrayBuffer(); times.push(response.status === 200 ? performance.now() - due : Infinity); })
    .catch(() => times.push(Infinity))
    .finally(() => inFlight.delete(probe));
  inFlight.add(probe);
  setTimeout(tick, Math.max(0, start + sent * workerData.everyMs - performance.now()));
}
tick();
`;

/** Round trips of /healthz (ms), one due every `everyMs`, until `until` settles and at least `minMs` passed. */
export async function probeWhile(baseUrl: string, until: Promise<unknown>, minMs = 0, everyMs = 10): Promise<number[]> {
  const prober = new Worker(PROBER, { eval: true, workerData: { baseUrl, everyMs } });
  const times = new Promise<number[]>((resolve) => prober.once('message', resolve));
  await Promise.all([until.catch(() => undefined), new Promise((r) => setTimeout(r, minMs))]);
  prober.postMessage('stop');
  const result = await times;
  await prober.terminate();
  return result;
}

export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
