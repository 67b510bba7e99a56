/**
 * Does a burst of PDF uploads stall the service, and does one token's backlog starve another?
 * Measured against a running service, each figure beside its idle value from the same run:
 *
 * - `/healthz` latency (median and max) while 5 uploads of 9.5 MB, then 100 of 3.5 MB, arrive at once;
 * - the service's resident memory before and after the burst;
 * - how long a small PDF of a second token takes while the first token has a backlog of
 *   20 PDFs, against the same PDF alone.
 *
 *   npx tsx bench/uploads.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { summarize } from './stats.ts';
import { BENCH_TEXT_1000 } from './texts.ts';
import { runCli, startServiceProcess } from '../test/helpers/process.ts';
import { textPdf } from '../test/fixtures/pdf.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-uploads-'));
const env = { RAPPORT_DATA_DIR: dir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_PDF_MAX_PENDING: '200', MAX_CONNECTIONS_PER_CLIENT: '0' };
const service = await startServiceProcess(env);

function rssMb(): number {
  const status = readFileSync(`/proc/${service.child.pid ?? 0}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function token(name: string): Promise<string> {
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', name, '--rate-limit', 'none', '--json'], env);
  return (JSON.parse(created.stdout) as { token: string }).token;
}

/**
 * `/healthz` round trips, one after another, until `until` settles. Measured from a thread of
 * its own: this thread is busy sending the uploads and would add its own delays.
 */
async function probeWhile(until: Promise<unknown>): Promise<number[]> {
  const probe = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const times = []; let done = false;
     parentPort.on('message', () => { done = true; });
     (async () => {
       while (!done) {
         const start = performance.now();
         await (await fetch(workerData + '/healthz')).arrayBuffer();
         times.push(performance.now() - start);
         await new Promise((r) => setTimeout(r, 20));
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: service.baseUrl },
  );
  const times = new Promise<number[]>((resolve) => probe.once('message', resolve));
  await until.catch(() => undefined);
  probe.postMessage('stop');
  const result = await times;
  await probe.terminate();
  return result;
}

/** A real PDF padded to `bytes` (pdf.js reads past trailing bytes). */
function padded(pdf: Uint8Array, bytes: number): Buffer {
  return Buffer.concat([Buffer.from(pdf), Buffer.alloc(Math.max(0, bytes - pdf.length), 0x20)]);
}

async function upload(secret: string, body: Buffer): Promise<string> {
  const response = await fetch(`${service.baseUrl}/v1/analysis/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/pdf' },
    body,
  });
  const json = (await response.json()) as { data?: { id: string } };
  if (!json.data) throw new Error(`upload refused: ${response.status} ${JSON.stringify(json)}`);
  return json.data.id;
}

async function finished(secret: string, id: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${service.baseUrl}/v1/analysis/${id}`, { headers: { authorization: `Bearer ${secret}` } });
    await response.arrayBuffer();
    if (response.status !== 202) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
try {
  const busy = await token('busy');
  const small = await token('small');
  const pdf = await textPdf(`${BENCH_TEXT_1000}\n${BENCH_TEXT_1000}`);

  const idle = summarize(await probeWhile(new Promise((r) => setTimeout(r, 1000))));
  console.log(`/healthz idle: median ${fmt(idle.median)}, max ${fmt(idle.max)}`);
  const rssBefore = rssMb();

  const big = padded(pdf, 9.5 * 1024 * 1024);
  const five = Promise.all(Array.from({ length: 5 }, () => upload(busy, big)));
  const during5 = summarize(await probeWhile(five));
  console.log(`/healthz during 5 × 9.5 MB uploads: median ${fmt(during5.median)}, max ${fmt(during5.max)} (${(during5.max / idle.median).toFixed(1)} × idle median)`);

  const mid = padded(pdf, 3.5 * 1024 * 1024);
  const burstStart = performance.now();
  const failures: string[] = [];
  const hundred = Promise.all(
    Array.from({ length: 100 }, () =>
      upload(busy, mid).catch((error: unknown) => {
        failures.push(`${String(error instanceof Error && error.cause ? error.cause : error)} after ${fmt(performance.now() - burstStart)}`);
        return null;
      }),
    ),
  );
  const during100 = summarize(await probeWhile(hundred));
  const ids = (await hundred).filter((id): id is string => id !== null);
  console.log(`/healthz during 100 × 3.5 MB uploads: median ${fmt(during100.median)}, max ${fmt(during100.max)}; all in after ${fmt(performance.now() - burstStart)}, ${failures.length} failed ${failures.slice(0, 3).join('; ')}`);
  console.log(`service memory: ${rssBefore} MB before, ${rssMb()} MB after the burst`);
  await Promise.all([...ids, ...(await five)].map((id) => finished(busy, id)));

  let start = performance.now();
  await finished(small, await upload(small, Buffer.from(pdf)));
  const alone = performance.now() - start;
  const backlog = Promise.all(Array.from({ length: 20 }, () => upload(busy, Buffer.from(pdf))));
  await backlog;
  start = performance.now();
  await finished(small, await upload(small, Buffer.from(pdf)));
  const behind = performance.now() - start;
  await Promise.all((await backlog).map((id) => finished(busy, id)));
  console.log(`another token's PDF: ${fmt(alone)} alone, ${fmt(behind)} behind a 20-PDF backlog of one token (${(behind / alone).toFixed(1)} ×)`);
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
