/**
 * HTTP throughput as ratios against a bare Fastify server measured in the same rounds, and the
 * end-to-end time of a PDF analysis.
 *
 *   npx tsx bench/http.ts [--seconds 4] [--rounds 5] [--connections 16] [--quick] [--before DIR] [--data-dir DIR --people N]
 *
 * The bare server and the routes take turns: a round measures the bare server, then each route
 * (a new text each time last),
 * for the same seconds at the same connections, and the rounds repeat (bench/rounds.ts). Each
 * line gives the middle round's req/s, the ratio of that to the bare server's middle round, the
 * spread of the rounds, and the server process's CPU a request (from /proc: all its threads).
 * One round of the bare server alone swung 22k–44k req/s between runs on a shared machine.
 *
 * Same conditions for both: each is one Node process started without V8 flags (the service as
 * an operator starts it, `node bin/rapport.mjs serve`, bench/service-at.ts; the bare server with
 * the same TypeScript loader), on loopback. The service writes its log (a JSON line a request,
 * on by default: an operator cannot switch it off per request) to stdout, which goes to a file,
 * as a process manager hands it to a collector: the service pays for producing and writing each
 * line, but no reader of this bench's own competes for the two cores, where a pipe drained here
 * would charge the collector's work to the service. The bare server has no log: it is the floor.
 *
 * --quick: 3 rounds of 3 s. --before DIR: that checkout's service too (its `GET /v1/usage` and
 * repeated text) in the same rounds, against the same bare server. With --data-dir (a data
 * directory holding N imported benchmark people, see bench/import.ts --keep) it also measures
 * GET /v1/profiles?email= over random people.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_PROFILE_TEXT, BENCH_TEXT_1000 } from './texts.ts';
import { describeStep, interleave, summarizeStep } from './rounds.ts';
import { processCpuMs, startServiceAt, type BenchService } from './service-at.ts';
import { summarize } from './stats.ts';
import { REPO_ROOT } from '../test/helpers/process.ts';
import { textPdf } from '../test/fixtures/pdf.ts';
import { seededRandom } from '../training/random.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
    before: { type: 'string' },
    'data-dir': { type: 'string' },
    people: { type: 'string', default: '0' },
  },
});
const seconds = Number(values.seconds ?? (values.quick ? '3' : '4'));
const rounds = Number(values.rounds ?? (values.quick ? '3' : '5'));
const connections = Number(values.connections);
if (!(rounds >= 3)) throw new Error('--rounds must be 3 or more: the middle of fewer says little');

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

/** `rapport ARGS` of the checkout at `root`, as its operator runs it. */
function cliAt(root: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(root, 'bin/rapport.mjs'), ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`rapport ${args.join(' ')} at ${root} failed: ${stderr}`));
      else resolve(stdout);
    });
  });
}

interface Running {
  service: BenchService;
  headers: Record<string, string>;
  dataDir: string | null;
}

const logDir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-http-log-'));

/** A service of the checkout at `root` with an enterprise token without limits. */
async function startService(root: string, name: string, dataDir?: string): Promise<Running> {
  const ownDir = dataDir ? null : mkdtempSync(path.join(tmpdir(), 'rapport-bench-http-'));
  const env = { RAPPORT_DATA_DIR: dataDir ?? ownDir ?? '', RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' };
  const service = await startServiceAt(root, env, path.join(logDir, `${name}.log`));
  const created = await cliAt(root, ['tokens', 'create', '--kind', 'enterprise', '--name', 'bench', '--rate-limit', 'none', '--json'], env);
  const token = (JSON.parse(created) as { token: string }).token;
  return { service, headers: { authorization: `Bearer ${token}` }, dataDir: ownDir };
}

interface Step {
  label: string;
  pid: number;
  options: autocannon.Options;
}

const bare = await startBare();
const running: Running[] = [];
try {
  const current = await startService(REPO_ROOT, 'service', values['data-dir']);
  running.push(current);
  const before = values.before ? await startService(path.resolve(values.before), 'before') : null;
  if (before) running.push(before);
  const { service, headers } = current;

  const textPath = `/v1/analysis/text?text=${encodeURIComponent(BENCH_PROFILE_TEXT)}`;
  // The figure is for an answer with a personality and its content, not the short no-personality one.
  const sample = (await (await fetch(`${service.baseUrl}${textPath}`, { headers })).json()) as { data: unknown; reason?: string };
  if (sample.data === null) throw new Error(`the bench profile text yields no personality (${sample.reason ?? '?'}): fix bench/texts.ts`);

  // The same route with a different text on every request: each is read anew (the repeated text
  // is reused after its first reading); texts that read alike share composed content.
  let variant = 0;
  const bareStep: Step = { label: 'bare', pid: bare.child.pid ?? 0, options: { url: bare.url } };
  const text: Step = { label: 'text', pid: service.pid, options: { url: `${service.baseUrl}${textPath}`, headers } };
  const varied: Step = {
    label: 'varied',
    pid: service.pid,
    options: {
      url: service.baseUrl,
      headers,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/analysis/text?text=${encodeURIComponent(`${BENCH_PROFILE_TEXT} Reference ${(variant += 1)}.`)}` }) }],
    },
  };
  const usage: Step = { label: 'usage', pid: service.pid, options: { url: `${service.baseUrl}/v1/usage`, headers } };
  const beforeSteps: Step[] = before
    ? [
      { label: 'before usage', pid: before.service.pid, options: { url: `${before.service.baseUrl}/v1/usage`, headers: before.headers } },
      { label: 'before text', pid: before.service.pid, options: { url: `${before.service.baseUrl}${textPath}`, headers: before.headers } },
    ]
    : [];
  // The new texts go last in a round: their readings can outlast the step (the text threads'
  // queue, garbage), which would otherwise be charged to the next step of the same service.
  const steps = [bareStep, usage, text, ...beforeSteps, varied];
  const measure = async (step: Step, duration = seconds) => {
    const cpuBefore = processCpuMs(step.pid);
    const result = await autocannon({ connections, duration, ...step.options });
    const spent = processCpuMs(step.pid) - cpuBefore;
    return { rps: result.requests.average, cpuUs: (spent * 1000) / Math.max(1, result.requests.total), failed: result.non2xx + result.errors };
  };
  for (const step of steps) await measure(step, 1);
  const figures = await interleave(steps, rounds, (step) => measure(step));
  const bareFigures = figures.get(bareStep);
  if (!bareFigures) throw new Error('no bare figures');
  const line = (step: Step) => {
    const kept = figures.get(step);
    if (!kept) return '';
    const failed = kept.failed ? `, ${kept.failed} failed` : '';
    return `${describeStep(summarizeStep(kept, bareFigures), step !== bareStep)}${failed}`;
  };
  console.log(`${rounds} interleaved rounds of ${seconds} s at ${connections} connections (bare, then each route); middle round, ratio of middles:`);
  console.log(`bare Fastify server: ${line(bareStep)}`);
  const words = BENCH_PROFILE_TEXT.split(/\s+/).length;
  console.log(`GET /v1/analysis/text (~${words} words): ${line(text)} (target: ≥ 1,000 req/s, ≥ 0.3 × bare)`);
  console.log(`GET /v1/analysis/text, a different text each time (each read anew): ${line(varied)}`);
  console.log(`GET /v1/usage (auth + metering only): ${line(usage)} (target: ≥ 0.5 × bare)`);
  for (const step of beforeSteps) {
    console.log(`BEFORE (${values.before ?? ''}) ${step.label === 'before usage' ? 'GET /v1/usage' : `GET /v1/analysis/text (~${words} words)`}: ${line(step)}`);
  }

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
  bare.child.kill('SIGTERM');
  for (const { service, dataDir } of running) {
    await service.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  rmSync(logDir, { recursive: true, force: true });
}
