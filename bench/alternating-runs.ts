/**
 * The scale-out bench's measuring: one service under load for a few seconds with the CPU every
 * part of the machine spent on it, and two services compared in alternating rounds, so a change
 * in the machine's load falls on both sides of a ratio.
 */
import autocannon from 'autocannon';
import { seededRandom } from '../training/random.ts';
import type { ServiceProcess } from '../test/helpers/process.ts';
import { cpuMs, machineShare, machineTicks, type MachineShare } from './cpu-limits.ts';
import { runWrk } from './wrk.ts';

export interface Api {
  service: ServiceProcess;
  /** The processes that answer requests (the workers under --processes, not the primary). */
  pids: number[];
  warm: boolean;
}

/**
 * Waits (a minute at most) until the API processes are idle: after listening they still start
 * their PDF and text worker threads, which would otherwise be counted against the first runs.
 */
export async function settle(api: Api): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    const before = cpuMs(api.pids);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs(api.pids) - before < 50 * api.pids.length) return;
  }
}

export interface Run {
  rate: number;
  requests: number;
  /** CPU milliseconds per request of the API processes, of the other processes given, and of this one (the load generator). */
  apiCpuMs: number;
  otherCpuMs: number;
  clientCpuMs: number;
  /** The 99th percentile of the requests' latency, milliseconds. */
  p99Ms: number;
  /** Cores of the whole machine idle, in interrupts and stolen by the host during the run. */
  machine: MachineShare;
}

/** Processes to count beside the API's: fixed ones, or looked up as each run starts (PostgreSQL's backends). */
export type Others = number[] | (() => Promise<number[]>);

/** The requests of both load generators: person{i}@example.com, i a random stored person. */
export const PROFILE_PATH = { prefix: '/v1/profiles?email=person', suffix: '%40example.com' };

/** What a run sends: the token's header, over how many connections at once. */
export interface Load {
  headers: Record<string, string>;
  connections: number;
}

/** How every run goes, from the bench's options. */
export interface RunSettings {
  /** Requests ask for person{i}@example.com, i below this. */
  people: number;
  seconds: number;
  rounds: number;
  loadGenerator: 'wrk' | 'autocannon';
  cores: number;
}

const WARM_UP_REQUESTS = 10_000;

/** Random stored people by email, the same sequence for every run. */
function autocannonRun(settings: RunSettings, api: Api, load: Load, length: { duration: number } | { amount: number }) {
  const next = seededRandom(5);
  return autocannon({
    url: api.service.baseUrl,
    headers: load.headers,
    connections: load.connections,
    ...length,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${PROFILE_PATH.prefix}${Math.floor(next() * settings.people)}${PROFILE_PATH.suffix}` }) }],
  });
}

/** One measured run of `seconds` with the chosen load generator, and the CPU milliseconds it took. */
async function loadFor(settings: RunSettings, api: Api, load: Load): Promise<{ rate: number; requests: number; failed: number; clientCpuMs: number; p99Ms: number }> {
  if (settings.loadGenerator === 'wrk') {
    const result = await runWrk({ baseUrl: api.service.baseUrl, ...load, seconds: settings.seconds, pathPrefix: PROFILE_PATH.prefix, pathSuffix: PROFILE_PATH.suffix, count: settings.people });
    return { rate: result.rate, requests: result.requests, failed: result.failed, clientCpuMs: result.cpuMs, p99Ms: result.p99Ms };
  }
  const client0 = process.cpuUsage();
  const result = await autocannonRun(settings, api, load, { duration: settings.seconds });
  const client = process.cpuUsage(client0);
  return { rate: result.requests.average, requests: result.requests.total, failed: result.non2xx + result.errors, clientCpuMs: (client.user + client.system) / 1000, p99Ms: result.latency.p99 };
}

async function measure(settings: RunSettings, api: Api, load: Load, others: Others): Promise<Run> {
  // A number of requests, not seconds: on a loaded machine a few seconds can be too few calls
  // for the JIT to have compiled the request path, and the cold side of a ratio would lose.
  if (!api.warm) await autocannonRun(settings, api, load, { amount: WARM_UP_REQUESTS * api.pids.length });
  api.warm = true;
  // PostgreSQL's backends are listed again at the end: a pool opens new connections during a run
  // (its idle ones close while the other side of a ratio runs), and their CPU counts from zero.
  const otherPids = async () => (typeof others === 'function' ? await others() : others);
  const other0 = new Map((await otherPids()).map((pid) => [pid, cpuMs([pid])]));
  const api0 = cpuMs(api.pids);
  const machine0 = machineTicks();
  const result = await loadFor(settings, api, load);
  const machine = machineShare(machine0, machineTicks(), settings.cores);
  if (result.failed > 0) console.log(`  (${result.failed} failed)`);
  const count = Math.max(1, result.requests);
  const otherMs = (await otherPids()).reduce((sum, pid) => sum + cpuMs([pid]) - (other0.get(pid) ?? 0), 0);
  return {
    rate: result.rate,
    requests: result.requests,
    apiCpuMs: (cpuMs(api.pids) - api0) / count,
    otherCpuMs: otherMs / count,
    clientCpuMs: result.clientCpuMs / count,
    p99Ms: result.p99Ms,
    machine,
  };
}

/**
 * The most N API processes can give over one on these cores, from the CPU a request costs: one
 * process uses at most one core, and all of them with PostgreSQL, the load generator and the
 * kernel's interrupts at most every core. Where the rest costs as much as the API, 2 cores allow two processes 1.33× at best.
 */
export function ceiling(cores: number, processes: number, apiMs: number, totalMs: number): number {
  const rate = (n: number) => Math.min(n / apiMs, cores / totalMs);
  return rate(processes) / rate(1);
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
export const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** Alternates the two sides `rounds` times (b under `loadB` where given): the median ratio b/a and every run. */
export async function compare(settings: RunSettings, a: Api, b: Api, load: Load, otherPids: Others = [], loadB: Load = load): Promise<{ ratio: number; ratios: number[]; a: Run[]; b: Run[] }> {
  const runsA: Run[] = [];
  const runsB: Run[] = [];
  for (let i = 0; i < settings.rounds; i += 1) {
    // Alternate which side goes first, so neither always follows the other's warm caches.
    if (i % 2 === 0) runsA.push(await measure(settings, a, load, otherPids));
    runsB.push(await measure(settings, b, loadB, otherPids));
    if (i % 2 === 1) runsA.push(await measure(settings, a, load, otherPids));
  }
  const ratios = runsA.map((run, i) => (runsB[i]?.rate ?? 0) / run.rate);
  return { ratio: median(ratios), ratios, a: runsA, b: runsB };
}

export const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
/** The middle of one figure over a side's runs. */
export const medianOf = (runs: Run[], figure: 'rate' | 'apiCpuMs' | 'otherCpuMs' | 'clientCpuMs' | 'p99Ms') => median(runs.map((r) => r[figure]));
export const medianRate = (runs: Run[]) => medianOf(runs, 'rate');
export const rps = (runs: Run[]) => `${Math.round(medianRate(runs))} req/s`;

/** The CPU a request cost each part of the machine, over a side's runs. */
export function cpuPerRequest(runs: Run[], cores: number): { api: number; total: number; text: string } {
  const [api, pgMs, client] = [medianOf(runs, 'apiCpuMs'), medianOf(runs, 'otherCpuMs'), medianOf(runs, 'clientCpuMs')];
  // The kernel's interrupt time (loopback TCP, mostly) is counted to no process: per request too.
  const irq = median(runs.map((r) => (r.machine.interrupts * 1000) / r.rate));
  const busy = (medianRate(runs) * (api + pgMs + client + irq)) / 1000;
  const machine = (key: 'idle' | 'steal') => median(runs.map((r) => r.machine[key])).toFixed(2);
  const text = `API ${us(api)}, PostgreSQL ${us(pgMs)}, load generator ${us(client)}, interrupts ${us(irq)} (${busy.toFixed(2)} of ${cores} cores busy, ${machine('idle')} idle, ${machine('steal')} stolen by the host)`;
  return { api, total: api + pgMs + client + irq, text };
}

/** The middle of the rounds' 99th percentiles (wrk leaves timed-out requests out of its latencies). */
export const p99 = (runs: Run[]) => `p99 ${medianOf(runs, 'p99Ms').toFixed(1)} ms`;
