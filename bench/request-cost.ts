/**
 * What each hook and plugin of an authenticated request costs: `GET /v1/usage` on a bare Fastify
 * server (bench/bare-server.ts, the same yardstick as bench/http.ts's), then with the service's
 * pieces added one at a time (bench/request-cost-server.ts),
 * then the whole base app. Every server is its own process, all started first and measured in
 * alternating rounds, so each step's figure and the next one's come from the same minutes. Each
 * line gives requests a second (autocannon, loopback) and the server's CPU a request (from
 * /proc, which a loaded machine inflates less than wall time), both the middle of the rounds.
 *
 *   npx tsx bench/request-cost.ts [--seconds 3] [--rounds 3] [--connections 16] [--before /work/main] [--only full,metering]
 *
 * --before DIR adds that checkout's whole app (and its repeated-text route) to the same rounds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_PROFILE_TEXT } from './texts.ts';
import { STEPS } from './request-cost-steps.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    before: { type: 'string' },
    only: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const here = path.resolve(import.meta.dirname, '..');

interface Target {
  label: string;
  step: string;
  root: string;
  path: string;
}

const TEXT_PATH = `/v1/analysis/text?text=${encodeURIComponent(BENCH_PROFILE_TEXT)}`;
const targets: Target[] = [
  ...STEPS.map((step) => ({ label: `+ ${step}`, step, root: here, path: '/v1/usage' })),
  { label: 'whole app, GET /v1/usage', step: 'full', root: here, path: '/v1/usage' },
  { label: 'whole app, GET /v1/analysis/text (repeated)', step: 'full', root: here, path: TEXT_PATH },
];
if (values.before) {
  const before = path.resolve(values.before);
  targets.push(
    { label: `BEFORE (${values.before}) whole app, GET /v1/usage`, step: 'full', root: before, path: '/v1/usage' },
    { label: `BEFORE (${values.before}) whole app, GET /v1/analysis/text (repeated)`, step: 'full', root: before, path: TEXT_PATH },
  );
}
// --only a,b: the bare step and the lines naming any of the comma-separated texts.
const only = values.only?.split(',').filter((text) => text.length > 0);
const chosen = only ? targets.filter((t) => t.step === 'bare' || only.some((text) => t.label.includes(text))) : targets;

interface Server {
  child: ChildProcess;
  address: string;
  secret: string;
}

const logDir = mkdtempSync(path.join(tmpdir(), 'rapport-request-cost-logs-'));
const servers = new Map<string, Promise<Server>>();

function serverFor(target: Target): Promise<Server> {
  const key = `${target.root}|${target.step}`;
  let server = servers.get(key);
  if (!server) {
    const log = openSync(path.join(logDir, `${servers.size}.log`), 'w');
    // The bare step is bench/http.ts's yardstick itself: a process with Fastify alone.
    const script = target.step === 'bare' ? 'bench/bare-server.ts' : 'bench/request-cost-server.ts';
    const child = fork(path.join(here, script), [], {
      cwd: target.root,
      env: { ...process.env, STEP: target.step, ROOT: target.root },
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', log, 'inherit', 'ipc'],
    });
    server = new Promise<Server>((resolve, reject) => {
      child.once('message', (message: { address: string; secret: string }) => resolve({ child, ...message }));
      child.once('exit', (code) => reject(new Error(`${target.label}: the server exited (${code})`)));
    });
    servers.set(key, server);
  }
  return server;
}

/** user + system CPU of a process, in milliseconds (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(target: Target, duration: number): Promise<{ rps: number; cpuUs: number; failed: number }> {
  const server = await serverFor(target);
  const pid = server.child.pid ?? 0;
  const before = cpuMs(pid);
  const result = await autocannon({ url: `${server.address}${target.path}`, connections, duration, headers: { authorization: `Bearer ${server.secret}` } });
  const spent = cpuMs(pid) - before;
  return { rps: result.requests.average, cpuUs: (spent * 1000) / Math.max(1, result.requests.total), failed: result.non2xx + result.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

try {
  // Start them one after another (each opens its own database), then warm each up.
  for (const target of chosen) await serverFor(target);
  for (const target of chosen) await measure(target, 1);
  const results = new Map<Target, { rps: number[]; cpu: number[]; failed: number }>();
  for (let round = 0; round < rounds; round += 1) {
    for (const target of chosen) {
      const figure = await measure(target, seconds);
      const kept = results.get(target) ?? { rps: [], cpu: [], failed: 0 };
      kept.rps.push(figure.rps);
      kept.cpu.push(figure.cpuUs);
      kept.failed += figure.failed;
      results.set(target, kept);
    }
  }
  const first = chosen[0];
  const bare = first ? median(results.get(first)?.rps ?? [1]) : 1;
  console.log(`GET /v1/usage, pieces added one at a time; ${rounds} rounds of ${seconds} s at ${connections} connections, middle round:`);
  console.log('| step | req/s | × bare | server CPU a request |');
  console.log('|---|---|---|---|');
  for (const target of chosen) {
    const kept = results.get(target);
    if (!kept) continue;
    const rps = median(kept.rps);
    console.log(`| ${target.label} | ${Math.round(rps)} | ${(rps / bare).toFixed(2)} | ${Math.round(median(kept.cpu))} µs |${kept.failed ? ` ${kept.failed} failed` : ''}`);
  }
} finally {
  for (const server of servers.values()) (await server.catch(() => null))?.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(logDir, { recursive: true, force: true });
}
