/**
 * Does a burst of PDF uploads stall the service, and does one token's backlog starve another?
 * Measured against a running service, each figure beside its idle value from the same run.
 * `/healthz` is probed in a loop from a thread of its own (test/helpers/healthz-probe.ts), and
 * reported as median, p99 and max:
 *
 * - while 5 uploads of 9.5 MB, then 100 of 3.5 MB, arrive at once (a 503 beyond
 *   RAPPORT_UPLOADS_AT_ONCE, or a 429 beyond the token's half of it, is retried after its
 *   Retry-After, and counted);
 * - "as checked" (issue 9), all at once: 20 adversarial texts at the 100,000-character limit,
 *   20 texts in GET query strings of 60 KB, a 9.5 MB PDF, 20 slow PDFs of one token, a small
 *   PDF of another, 200 uncached DISC map PNGs
 *   and 50 stalled uploads (headers and 64 KB sent, then nothing), until every PDF is analysed;
 *   also probed as a load balancer does, a new connection per check, on RAPPORT_METRICS_PORT's
 *   listener (its own thread, src/http/ops-listener/);
 * - the service's resident memory before and after, and before and after 400 uncached map PNGs;
 * - how long a small PDF of a second token takes behind a backlog of 20 PDFs of the first.
 *
 *   npx tsx bench/uploads.ts [--quick]     (--quick: 30 uploads of 3.5 MB instead of 100)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { summarize } from './stats.ts';
import { BENCH_TEXT_1000 } from './texts.ts';
import { probeWhile, startProbe } from '../test/helpers/healthz-probe.ts';
import { freePort, runCli, startServiceProcess } from '../test/helpers/process.ts';
import { textPdf } from '../test/fixtures/pdf.ts';

const quick = process.argv.includes('--quick');
const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-uploads-'));
const opsPort = await freePort();
const opsUrl = `http://127.0.0.1:${opsPort}`;
const env = { RAPPORT_DATA_DIR: dir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_PDF_MAX_PENDING: '200', MAX_CONNECTIONS_PER_CLIENT: '0', RAPPORT_METRICS_PORT: String(opsPort) };
const service = await startServiceProcess(env);

function rssMb(): number {
  const status = readFileSync(`/proc/${service.child.pid ?? 0}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function token(name: string): Promise<string> {
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', name, '--rate-limit', 'none', '--json'], env);
  return (JSON.parse(created.stdout) as { token: string }).token;
}

/** A real PDF padded to `bytes` (pdf.js reads past trailing bytes). */
function padded(pdf: Uint8Array, bytes: number): Buffer {
  return Buffer.concat([Buffer.from(pdf), Buffer.alloc(Math.max(0, bytes - pdf.length), 0x20)]);
}

let refusedBusy = 0;
let mixedFailures = 0;
async function upload(secret: string, body: Buffer): Promise<string> {
  for (;;) {
    const response = await fetch(`${service.baseUrl}/v1/analysis/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/pdf' },
      body,
    });
    const json = (await response.json()) as { data?: { id: string } };
    if (json.data) return json.data.id;
    // 503: the process receives all it takes at once; 429: this token sends its share of them.
    if (response.status !== 503 && response.status !== 429) throw new Error(`upload refused: ${response.status} ${JSON.stringify(json)}`);
    refusedBusy += 1;
    await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

async function finished(secret: string, id: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${service.baseUrl}/v1/analysis/${id}`, { headers: { authorization: `Bearer ${secret}` } });
    await response.arrayBuffer();
    if (response.status !== 202) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Long prose with an adversarial run in its middle, at the 100,000-character limit. */
function adversarialTexts(): string[] {
  const prose = (length: number) => BENCH_TEXT_1000.repeat(Math.ceil(length / BENCH_TEXT_1000.length)).slice(0, length);
  const runs = ['a'.repeat(20_000), 'ab'.repeat(10_000), '.'.repeat(20_000), '<!--'.repeat(5_000), 'a-'.repeat(10_000)];
  return runs.map((run) => `${prose(40_000)} ${run} ${prose(40_000)}`.slice(0, 100_000));
}

/** The longest start of `text` whose URL encoding fits in `bytes` (GET URLs are limited to 64 KB). */
function queryOf(text: string, bytes: number): string {
  let encoded = encodeURIComponent(text);
  for (let chars = text.length; encoded.length > bytes; chars = Math.floor(chars * 0.95)) encoded = encodeURIComponent(text.slice(0, chars));
  return encoded;
}

/** An upload that sends its headers and 64 KB of a declared 9 MB, then nothing: held open until closed. */
function stalledUpload(secret: string): Socket {
  const { hostname, port } = new URL(service.baseUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST /v1/analysis/pdf HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/pdf\r\nContent-Length: ${9 * 1024 * 1024}\r\n\r\n`,
  );
  socket.write(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64 * 1024, 0x20)]));
  return socket;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const line = (what: string, samples: number[], idleMedian: number) => {
  const s = summarize(samples);
  return `/healthz ${what}: median ${fmt(s.median)}, p99 ${fmt(s.p99)}, max ${fmt(s.max)} (p99 ${(s.p99 / idleMedian).toFixed(1)} × idle median; ${samples.length} probes)`;
};
try {
  const busy = await token('busy');
  const small = await token('small');
  const stall = await token('stall');
  const pdf = await textPdf(`${BENCH_TEXT_1000}\n${BENCH_TEXT_1000}`);
  const slow = Buffer.from(await textPdf(Array.from({ length: 20 }, () => BENCH_TEXT_1000).join('\n')));
  await finished(small, await upload(small, Buffer.from(pdf))); // warm up a PDF worker

  const idle = summarize(await probeWhile(service.baseUrl, () => Promise.resolve(), 2000));
  console.log(`/healthz idle: median ${fmt(idle.median)}, p99 ${fmt(idle.p99)}, max ${fmt(idle.max)}`);
  const rssBefore = rssMb();

  const big = padded(pdf, 9.5 * 1024 * 1024);
  let probe = await startProbe(service.baseUrl);
  const five = await Promise.all(Array.from({ length: 5 }, () => upload(busy, big)));
  console.log(line('during 5 × 9.5 MB uploads', await probe.stop(), idle.median));

  const count = quick ? 30 : 100;
  const mid = padded(pdf, 3.5 * 1024 * 1024);
  probe = await startProbe(service.baseUrl);
  const burstStart = performance.now();
  const burst = await Promise.all(Array.from({ length: count }, () => upload(busy, mid)));
  const duringBurst = await probe.stop();
  console.log(line(`during ${count} × 3.5 MB uploads`, duringBurst, idle.median) + `; all in after ${fmt(performance.now() - burstStart)}, ${refusedBusy} answers 503 or 429 (retried)`);
  console.log(`service memory: ${rssBefore} MB before, ${rssMb()} MB after the burst`);
  await Promise.all([...burst, ...five].map((id) => finished(busy, id)));

  // The map thread frees resvg's memory only when its heap is collected (src/pages/disc-map-worker.ts).
  const rssBeforeMaps = rssMb();
  for (let i = 0; i < 400; i++) {
    const response = await fetch(`${service.baseUrl}/images/disc-map/${((i % 20) / 25 - 0.4).toFixed(3)}_${(Math.floor(i / 20) / 25 - 0.4115).toFixed(3)}.png`);
    await response.arrayBuffer();
  }
  console.log(`service memory: ${rssBeforeMaps} MB before, ${rssMb()} MB after 400 uncached DISC map PNGs`);

  // Issue 9, "how it is checked": everything at once.
  const stalled = Array.from({ length: 50 }, () => stalledUpload(stall));
  const texts = adversarialTexts();
  // Also as a load balancer checks: a new connection each time, on the operations listener (RAPPORT_METRICS_PORT).
  const opsProbe = await startProbe(opsUrl, 10, { newConnections: true });
  const duringMixed = await probeWhile(service.baseUrl, async () => {
    const textAnswers = Array.from({ length: 20 }, (_, i) =>
      fetch(`${service.baseUrl}/v1/analysis/text`, {
        method: 'POST',
        headers: { authorization: `Bearer ${small}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: texts[i % texts.length] }),
      }).then(async (r) => (await r.arrayBuffer(), r.status)),
    );
    const query = queryOf(texts[0] ?? '', 60_000);
    const queried = Array.from({ length: 20 }, () =>
      fetch(`${service.baseUrl}/v1/analysis/text?text=${query}`, { headers: { authorization: `Bearer ${small}` } }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    );
    const maps = Array.from({ length: 200 }, (_, i) => {
      const x = (((i * 37) % 200) / 200 - 0.5).toFixed(3);
      const y = (((i * 91) % 200) / 200 - 0.5).toFixed(3);
      return fetch(`${service.baseUrl}/images/disc-map/${x}_${y}.png`).then(async (r) => (await r.arrayBuffer(), r.status));
    });
    const ids = await Promise.all([
      upload(busy, big).then((id) => [busy, id] as const),
      ...Array.from({ length: 20 }, () => upload(busy, slow).then((id) => [busy, id] as const)),
      upload(small, Buffer.from(pdf)).then((id) => [small, id] as const),
    ]);
    const [texted, drawn] = await Promise.all([Promise.all([...textAnswers, ...queried]), Promise.all(maps), Promise.all(ids.map(([secret, id]) => finished(secret, id)))]);
    mixedFailures = [...texted, ...drawn].filter((status) => status !== 200).length;
  });
  const opsDuringMixed = await opsProbe.stop();
  for (const socket of stalled) socket.destroy();
  console.log(line('as checked (texts in bodies and query strings, 9.5 MB + 20 slow + small PDFs, 200 map PNGs, 50 stalled uploads)', duringMixed, idle.median) + `; ${mixedFailures} text or map answers not 200`);
  console.log(line('as checked, on the operations listener, a new connection per check', opsDuringMixed, idle.median));
  console.log(`service memory after: ${rssMb()} MB`);

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
