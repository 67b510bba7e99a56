/**
 * Work the service hands to its worker threads, timed where the tests only check the answer:
 *
 * - the PDF extractor refusing a 3,000-page document (its page count is read, no page is) and a
 *   decompression bomb (200 MB of zeros in a 1 MB file), each the median of 5 on a warm thread;
 * - `/healthz` of a running service (its own process, one text thread) idle, and while 20
 *   adversarial texts of 100,000 characters are being analysed (probed from a thread of its own,
 *   test/helpers/healthz-probe.ts); the median within 50 ms of idle was formerly a test's check.
 *
 *   npx tsx bench/worker-threads.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PdfExtractor, type PdfTextResult } from '../src/personality/pdf/index.ts';
import { summarize } from './stats.ts';
import { OUTGOING_TEXT, RESUME_TEXT } from '../test/fixtures/texts.ts';
import { probeWhile, startProbe } from '../test/helpers/healthz-probe.ts';
import { runCli, startServiceProcess } from '../test/helpers/process.ts';
import { manyPagesPdf, streamBombPdf } from '../test/personality/pdf/fixtures.ts';

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function medianOf5(extractor: PdfExtractor, bytes: Uint8Array, expected: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const result: PdfTextResult = await extractor.extract(bytes);
    times.push(performance.now() - start);
    if (result.ok || result.reason !== expected) throw new Error(`expected ${expected}, got ${JSON.stringify(result)}`);
  }
  return summarize(times).median;
}

const extractor = new PdfExtractor({}, 1);
try {
  await extractor.warm();
  console.log(`PDF of 3,000 pages refused (too_many_pages): median ${fmt(await medianOf5(extractor, manyPagesPdf(3000), 'too_many_pages'))}`);
  console.log(`PDF decompression bomb refused (too_large): median ${fmt(await medianOf5(extractor, streamBombPdf(200), 'too_large'))}`);
} finally {
  await extractor.close();
}

/** Ordinary prose with markup and a resume mixed in, cut to `length` characters. */
function longText(length: number): string {
  let text = '';
  while (text.length < length) text += `<p>${OUTGOING_TEXT}</p>\n${RESUME_TEXT}\n`;
  return text.slice(0, length);
}

/** Long prose with an adversarial run in its middle (a shape alone is rejected as junk early). */
function adversarialTexts(): string[] {
  const runs = ['a'.repeat(20_000), 'ab'.repeat(10_000), '.'.repeat(20_000), '<!--'.repeat(5_000), 'a-'.repeat(10_000)];
  return runs.map((run) => {
    const prose = longText((100_000 - run.length) / 2);
    return `${prose} ${run} ${prose}`.slice(0, 100_000);
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-threads-'));
const env = { RAPPORT_DATA_DIR: dir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_TEXT_WORKERS: '1', MAX_CONNECTIONS_PER_CLIENT: '0' };
// The request log to a file: read here, it would cost this process CPU the service competes with.
const service = await startServiceProcess(env, [], 'node', { logFile: path.join(dir, 'service.log') });
try {
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'bench threads', '--rate-limit', 'none', '--json'], env);
  const token = (JSON.parse(created.stdout) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const analyse = async (text: string) => {
    const response = await fetch(`${service.baseUrl}/v1/analysis/text`, { method: 'POST', headers, body: JSON.stringify({ text }) });
    await response.arrayBuffer();
    return response.status;
  };
  await analyse(longText(100_000)); // warm up: the route, the text thread's first text
  const idle = summarize(await probeWhile(service.baseUrl, () => Promise.resolve(), 2000));
  const shapes = adversarialTexts();
  const probe = await startProbe(service.baseUrl);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => analyse(shapes[i % shapes.length] ?? '')));
  const seconds = (performance.now() - started) / 1000;
  const busy = summarize(await probe.stop());
  const failed = statuses.filter((status) => status !== 200).length;
  console.log(`/healthz idle: median ${fmt(idle.median)}, p99 ${fmt(idle.p99)}`);
  console.log(
    `/healthz while 20 adversarial texts of 100,000 characters are analysed on one text thread (${seconds.toFixed(1)} s): ` +
      `median ${fmt(busy.median)}, p99 ${fmt(busy.p99)}; median ${fmt(busy.median - idle.median)} over idle (target under 50 ms); ${failed} texts not answered 200`,
  );
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
