import { Worker } from 'node:worker_threads';

/**
 * GET /healthz round trips, one after another with `gapMs` between them, from a thread of their
 * own (the caller's thread is busy sending uploads and would add its own delays). One at a time
 * on purpose: probes sent on a fixed schedule pile up on a starved machine and become load of
 * their own. A probe that fails or is not a 200 counts as Infinity.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const times = [];
let stop = false;
parentPort.on('message', () => { stop = true; });
// A connection of its own for each check, as a load balancer or the kubelet opens one.
const getOnNewConnection = (url) => new Promise((resolve, reject) => {
  http.get(url, { agent: false }, (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode));
  }).on('error', reject);
});
const get = async (url) => {
  if (workerData.newConnections) return getOnNewConnection(url);
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
};
const probe = async () => {
  const start = performance.now();
  try {
    const status = await get(workerData.baseUrl + '/healthz');
    return status === 200 ? performance.now() - start : Infinity;
  } catch {
    return Infinity;
  }
};
(async () => {
  // Not counted: the thread's first request loads its HTTP client and opens the connection,
  // which a monitoring client did long before; counted, it measured this thread's start.
  await probe();
  parentPort.postMessage('ready');
  while (!stop) {
    times.push(await probe());
    await new Promise((resolve) => setTimeout(resolve, workerData.gapMs));
  }
  parentPort.postMessage(times);
})();
`;

export interface HealthzProbe {
  /** Stops probing; the round trips measured since the probe was ready (ms). */
  stop(): Promise<number[]>;
}

/**
 * Starts probing; resolves once the prober is warm, so work started after it is measured from its
 * first probe. By default on one kept-alive connection; `newConnections`: a connection per check.
 */
export async function startProbe(baseUrl: string, gapMs = 10, options: { newConnections?: boolean } = {}): Promise<HealthzProbe> {
  const prober = new Worker(PROBER, { eval: true, workerData: { baseUrl, gapMs, newConnections: options.newConnections === true } });
  const messages: unknown[] = [];
  let notify = () => {};
  prober.on('message', (message: unknown) => {
    messages.push(message);
    notify();
  });
  const next = async (): Promise<unknown> => {
    while (messages.length === 0) await new Promise<void>((resolve) => (notify = resolve));
    return messages.shift();
  };
  await next(); // 'ready'
  return {
    async stop() {
      prober.postMessage('stop');
      const times = (await next()) as number[];
      await prober.terminate();
      return times;
    },
  };
}

/** Round trips of /healthz (ms) while `work` (started once the prober is warm) runs, and at least `minMs`. */
export async function probeWhile(baseUrl: string, work: () => Promise<unknown>, minMs = 0, gapMs = 10): Promise<number[]> {
  const probe = await startProbe(baseUrl, gapMs);
  await Promise.all([work().catch(() => undefined), new Promise((r) => setTimeout(r, minMs))]);
  return probe.stop();
}

export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
