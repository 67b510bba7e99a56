import { Worker } from 'node:worker_threads';

/**
 * GET /healthz round trips, one after another with `gapMs` between them, from a thread of their
 * own (the caller's thread is busy sending uploads and would add its own delays). One at a time
 * on purpose: probes sent on a fixed schedule pile up on a starved machine and become load of
 * their own. A probe that fails or is not a 200 counts as Infinity.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const times = [];
let stop = false;
parentPort.on('message', () => { stop = true; });
(async () => {
  while (!stop) {
    const start = performance.now();
    try {
      const response = await fetch(workerData.baseUrl + '/healthz');
      await response.arrayBuffer();
      times.push(response.status === 200 ? performance.now() - start : Infinity);
    } catch {
      times.push(Infinity);
    }
    await new Promise((resolve) => setTimeout(resolve, workerData.gapMs));
  }
  parentPort.postMessage(times);
})();
`;

/** Round trips of /healthz (ms) until `until` settles and at least `minMs` passed. */
export async function probeWhile(baseUrl: string, until: Promise<unknown>, minMs = 0, gapMs = 10): Promise<number[]> {
  const prober = new Worker(PROBER, { eval: true, workerData: { baseUrl, gapMs } });
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
