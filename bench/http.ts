/**
 * HTTP throughput as ratios against a bare Fastify server measured in the same run, and the
 * end-to-end time of a PDF analysis.
 *
 *   npx tsx bench/http.ts [--seconds 5] [--connections 16] [--data-dir DIR --people N]
 *
 * With --data-dir (a data directory holding N imported benchmark people, see bench/import.ts
 * --keep) it also measures GET /v1/profiles?email= over random people.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_PROFILE_TEXT, BENCH_TEXT_1000 } from './texts.ts';
import { summarize } from './stats.ts';
import { startServiceProcess, runCli, REPO_ROOT } from '../test/helpers/process.ts';
import { textPdf } from '../test/fixtures/pdf.ts';
import { seededRandom } from '../training/random.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    'data-dir': { type: 'string' },
    people: { type: 'string', default: '0' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

async function load(options: autocannon.Options): Promise<{ rps: number; p99: number; non2xx: number }> {
  const result = await autocannon({ connections, duration: seconds, ...options });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/bare-server.ts')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error('bare server exited')));
  });
  return { child, url };
}

const bare = await startBare();
await load({ url: bare.url, duration: 1 });
const bareResult = await load({ url: bare.url });
bare.child.kill('SIGTERM');
console.log(`bare Fastify server: ${Math.round(bareResult.rps)} req/s (p99 ${bareResult.p99} ms)`);

const ownDir = values['data-dir'] ? null : mkdtempSync(path.join(tmpdir(), 'rapport-bench-http-'));
const env = { RAPPORT_DATA_DIR: values['data-dir'] ?? ownDir ?? '', RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' };
// The service's log (a line a request) goes to a file, as a deployment sends it to a collector:
// read into this process, it took CPU from the load generator and the service on 2 cores.
const logDir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-http-log-'));
const service = await startServiceProcess(env, [], 'node', { logFile: path.join(logDir, 'service.log') });
try {
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'bench', '--rate-limit', 'none', '--json'], env);
  const token = (JSON.parse(created.stdout) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}` };

  const textUrl = `${service.baseUrl}/v1/analysis/text?text=${encodeURIComponent(BENCH_PROFILE_TEXT)}`;
  // The figure is for an answer with a personality and its content, not the short no-personality one.
  const sample = (await (await fetch(textUrl, { headers })).json()) as { data: unknown; reason?: string };
  if (sample.data === null) throw new Error(`the bench profile text yields no personality (${sample.reason ?? '?'}): fix bench/texts.ts`);
  await load({ url: textUrl, headers, duration: 1 });
  const text = await load({ url: textUrl, headers });
  console.log(
    `GET /v1/analysis/text (~${BENCH_PROFILE_TEXT.split(/\s+/).length} words): ${Math.round(text.rps)} req/s, p99 ${text.p99} ms, ` +
      `${(text.rps / bareResult.rps).toFixed(2)} × bare (target: ≥ 1,000 req/s)${text.non2xx ? `, ${text.non2xx} failed` : ''}`,
  );

  // The same route with a different text on every request: each is read anew (the line above
  // repeats one text, reused after its first reading); texts that read alike share composed content.
  let variant = 0;
  const varied = await load({
    url: service.baseUrl,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/analysis/text?text=${encodeURIComponent(`${BENCH_PROFILE_TEXT} Reference ${(variant += 1)}.`)}` }) }],
  });
  console.log(
    `GET /v1/analysis/text, a different text each time (each read anew): ${Math.round(varied.rps)} req/s, p99 ${varied.p99} ms, ` +
      `${(varied.rps / bareResult.rps).toFixed(2)} × bare${varied.non2xx ? `, ${varied.non2xx} failed` : ''}`,
  );

  const usage = await load({ url: `${service.baseUrl}/v1/usage`, headers });
  console.log(`GET /v1/usage (auth + metering only): ${Math.round(usage.rps)} req/s, ${(usage.rps / bareResult.rps).toFixed(2)} × bare`);

  const pdf = await textPdf(`Resume\n${BENCH_TEXT_1000.split(' ').slice(0, 600).join(' ')}`);
  const times: number[] = [];
  for (let i = 0; i < 25; i += 1) {
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'resume.pdf');
    const start = performance.now();
    const upload = (await (await fetch(`${service.baseUrl}/v1/analysis/pdf`, { method: 'POST', headers, body: form })).json()) as { data: { id: string } };
    for (;;) {
      const response = await fetch(`${service.baseUrl}/v1/analysis/${upload.data.id}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 202) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    times.push(performance.now() - start);
  }
  const pdfStats = summarize(times.slice(5));
  console.log(`2-page resume PDF, upload to result: median ${pdfStats.median.toFixed(1)} ms, max ${pdfStats.max.toFixed(1)} ms (target: < 100 ms)`);

  const people = Number(values.people);
  if (values['data-dir'] && people > 0) {
    // Uniformly random people, so the figure includes cold rows and uncached advice.
    const next = seededRandom(11);
    const profilesAt = (conns: number, duration = seconds) =>
      load({
        url: service.baseUrl,
        headers,
        connections: conns,
        duration,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/profiles?email=person${Math.floor(next() * people)}%40example.com` }) }],
      });
    await profilesAt(4, 1);
    // Latency at a moderate load, throughput at saturation: one figure cannot show both.
    const light = await profilesAt(4);
    const saturated = await profilesAt(connections);
    console.log(`GET /v1/profiles?email= over ${people} people, 4 connections: ${Math.round(light.rps)} req/s, p99 ${light.p99} ms (target p99 < 20 ms)`);
    console.log(`GET /v1/profiles?email= over ${people} people, ${connections} connections: ${Math.round(saturated.rps)} req/s, p99 ${saturated.p99} ms${saturated.non2xx ? `, ${saturated.non2xx} failed` : ''}`);
    console.log(`PROFILES_RPS ${saturated.rps}`);
  }
} finally {
  await service.stop();
  if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
}
