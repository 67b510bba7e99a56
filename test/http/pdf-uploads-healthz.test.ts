import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { percentile, probeWhile, startProbe } from '../helpers/healthz-probe.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.ts';

/**
 * The event loop stays free while PDFs arrive and are analysed: a running service (its own
 * process, as in production) gets a 9.5 MB PDF, 20 slow PDFs from one token and a small one
 * from another, and /healthz is probed all the while (test/helpers/healthz-probe.ts: round
 * trips one after another, from a thread of their own), against its idle answers in the same
 * run. How long /healthz waits meanwhile (busy p95 within 50 ms of idle) is a speed target,
 * measured by `npm run bench` (bench/uploads.ts) in one run rather than asserted here, where a
 * busy shared machine would fail it.
 */

const PERCENTILE = 0.95;

/** A real PDF padded with spaces to `bytes` (pdf.js reads past trailing bytes). */
function padded(pdf: Uint8Array, bytes: number): Buffer {
  return Buffer.concat([Buffer.from(pdf), Buffer.alloc(Math.max(0, bytes - pdf.length), 0x20)]);
}

describe('/healthz while PDFs are uploaded and analysed', () => {
  let cli: CliEnvironment | undefined;
  let service: ServiceProcess;
  let env: Record<string, string>;
  beforeAll(async () => {
    // A migrated database of its own (on PostgreSQL too). Two PDF workers whatever the machine,
    // so that a machine with more cores does not finish the work before the probes have
    // measured enough of it.
    cli = await cliEnvironment('uploads-healthz');
    env = { ...cli.env, MAX_CONNECTIONS_PER_CLIENT: '0', RAPPORT_PDF_MAX_PENDING: '50', RAPPORT_PDF_WORKERS: '2', RAPPORT_TEXT_WORKERS: '1' };
    service = await startServiceProcess(env);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await cli?.cleanup();
  });

  /** A token through the running service's admin socket, from this process (what the CLI prints is tested in test/cli). */
  async function token(name: string): Promise<string> {
    const created = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', name, '--rate-limit', 'none', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    return (JSON.parse(created.stdout) as { token: string }).token;
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

  /** The analysis's final answer, polled one id at a time (polling is not what is measured). */
  async function outcome(secret: string, id: string): Promise<{ status: number; body: { data: { status?: string } | null } }> {
    for (;;) {
      const response = await fetch(`${service.baseUrl}/v1/analysis/${id}`, { headers: { authorization: `Bearer ${secret}` } });
      const body = (await response.json()) as { data: { status?: string } | null };
      // 202 while in progress; a 503 is load shedding (the client is told to come back).
      if (response.status !== 202 && response.status !== 503) return { status: response.status, body };
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('keeps answering /healthz during a 9.5 MB PDF, 20 slow PDFs of one token and a small one of another, and answers every upload', async () => {
    const busyToken = await token('busy');
    const otherToken = await token('other');
    const small = await textPdf(OUTGOING_TEXT);
    // About 15 pages of text: a few hundred ms of pdf.js each, so the workers stay busy.
    const slow = Buffer.from(await textPdf(Array.from({ length: 20 }, () => `${RESUME_TEXT}\n${OUTGOING_TEXT}`).join('\n')));
    const big = padded(small, 9.5 * 1024 * 1024);
    // Warm up: connections, the route, a PDF worker's first document.
    await outcome(otherToken, await upload(otherToken, Buffer.from(small)));

    const idle = await probeWhile(service.baseUrl, () => Promise.resolve(), 1000);
    const probe = await startProbe(service.baseUrl);
    const ids = await Promise.all([
      upload(busyToken, big).then((id) => ({ secret: busyToken, id })),
      ...Array.from({ length: 20 }, () => upload(busyToken, slow).then((id) => ({ secret: busyToken, id }))),
      upload(otherToken, Buffer.from(small)).then((id) => ({ secret: otherToken, id })),
    ]);
    const answers = [];
    for (const { secret, id } of ids) answers.push(await outcome(secret, id));
    const busy = await probe.stop();
    console.log(
      `/healthz under PDF uploads (a figure, not a check): idle p95 ${percentile(idle, PERCENTILE).toFixed(1)} ms, ` +
        `busy p95 ${percentile(busy, PERCENTILE).toFixed(1)} ms, max ${Math.max(...busy).toFixed(1)} ms, ${busy.length} probes`,
    );
    // Every upload was taken and answered: the slow ones and the small one with a personality,
    // the padded one too (its text is the small PDF's).
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 22 }, () => 200));
    expect(answers.every((answer) => answer.body.data?.status === 'complete')).toBe(true);
    // /healthz answered all through the work (each probe waits for its answer before the next).
    expect(busy.length).toBeGreaterThan(50);
  }, 600_000);
});
