/**
 * Scaling out on PostgreSQL: GET /v1/profiles with one API process against two
 * (`serve --processes 2`), and the Redis rate limiter against the in-process one.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/scale-out.ts [--people 10000] [--seconds 5] [--connections 32] [--rounds 5] [--cpu-cap 0.4]
 *
 * Needs a PostgreSQL server (a fresh database is created on it and dropped) and Debian's
 * redis-server (a throwaway one is started on loopback). Every service is started once and the
 * runs alternate between them (`--rounds`), so a change in the machine's load falls on both
 * sides of a ratio; each line gives the median ratio and the spread of the rounds.
 *
 * 1. one process against two, as they are (the load generator, PostgreSQL and Redis share the
 *    same cores as the API processes, so on a 2-core machine two processes cannot reach 2×);
 * 2. the Redis limiter against the in-process one, with the CPU time each costs per request
 *    (API process, redis-server);
 * 3. the same with redis-server pinned to a core of its own and the API processes to the others
 *    (taskset), which separates the limiter's own cost from redis-server taking cores away;
 * 4. a SIMULATION of one core per API process: each API process capped at `--cpu-cap` CPUs with
 *    a cgroup (needs root or a delegated cgroup tree; skipped with a message otherwise), so the
 *    API processes are the bottleneck and PostgreSQL and the load generator have CPU left.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { seededRandom } from '../training/random.ts';
import { runCli, startServiceProcess, type ServiceProcess } from '../test/helpers/process.ts';
import { HAVE_REDIS, startRedis } from '../test/helpers/redis.ts';
import { cpuCaps, cpuMs, machineShare, machineTicks, pin, type MachineShare } from './cpu-limits.ts';
import { generatePeople } from './people.ts';
import { HAVE_WRK, runWrk } from './wrk.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '5' },
    'cpu-cap': { type: 'string', default: '0.4' },
    'load-generator': { type: 'string', default: HAVE_WRK ? 'wrk' : 'autocannon' },
  },
});
const people = Number(values.people);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const cpuCap = Number(values['cpu-cap']);
const loadGenerator = values['load-generator'];
if (loadGenerator !== 'wrk' && loadGenerator !== 'autocannon') throw new Error('--load-generator is wrk or autocannon');
if (loadGenerator === 'wrk' && !HAVE_WRK) throw new Error('--load-generator wrk needs wrk (Debian: apt-get install wrk)');
const cores = availableParallelism();
const WARM_UP_REQUESTS = 10_000;
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl || !HAVE_REDIS) {
  console.log('scale-out bench skipped: it needs DATABASE_URL (a PostgreSQL server) and redis-server');
  process.exit(0);
}

const name = `rapport_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const redis = await startRedis();
const dir = await mkdtemp(path.join(tmpdir(), 'rapport-bench-scale-'));
const env = { DATABASE_URL: url.toString(), RAPPORT_DEMO_DATA: 'false', RAPPORT_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'info' };

interface Api {
  service: ServiceProcess;
  /** The processes that answer requests (the workers under --processes, not the primary). */
  pids: number[];
  warm: boolean;
}

let started = 0;

async function startApi(extraEnv: Record<string, string>, processes: number): Promise<Api> {
  // The request logs (a line a request, as in production) go to a file, as an operator's would:
  // piped into this process they cost it 4–7 µs of CPU a request (measured), taken from the cores
  // the API processes share and counted on neither side, into a string that grows every request.
  started += 1;
  const logFile = path.join(dir, `api-${started}.log`);
  const service = await startServiceProcess({ ...env, ...extraEnv }, processes > 1 ? ['--processes', String(processes)] : [], 'node', { logFile });
  // Wait until every process listens, so no figure is one process warming up.
  for (let i = 0; i < 300; i += 1) {
    const pids = [...new Set([...service.logs().matchAll(/"pid":(\d+)[^\n]*"msg":"Rapport is listening"/g)].map((m) => Number(m[1])))];
    if (pids.length >= processes) return { service, pids, warm: false };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not every API process started:\n${service.logs()}`);
}

/**
 * Waits (a minute at most) until the API processes are idle: after listening they still start
 * their PDF and text worker threads, which would otherwise be counted against the first runs.
 */
async function settle(api: Api): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    const before = cpuMs(api.pids);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs(api.pids) - before < 50 * api.pids.length) return;
  }
}

interface Run {
  rate: number;
  requests: number;
  /** CPU milliseconds per request of the API processes, of the other processes given, and of this one (the load generator). */
  apiCpuMs: number;
  otherCpuMs: number;
  clientCpuMs: number;
  /** Cores of the whole machine idle, in interrupts and stolen by the host during the run. */
  machine: MachineShare;
}

/** Processes to count beside the API's: fixed ones, or looked up as each run starts (PostgreSQL's backends). */
type Others = number[] | (() => Promise<number[]>);

/** The requests of both load generators: person{i}@example.com, i a random stored person. */
const PROFILE_PATH = { prefix: '/v1/profiles?email=person', suffix: '%40example.com' };

/** Random stored people by email, the same sequence for every run. */
function autocannonRun(api: Api, headers: Record<string, string>, length: { duration: number } | { amount: number }) {
  const next = seededRandom(5);
  return autocannon({
    url: api.service.baseUrl,
    headers,
    connections,
    ...length,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${PROFILE_PATH.prefix}${Math.floor(next() * people)}${PROFILE_PATH.suffix}` }) }],
  });
}

/** One measured run of `--seconds` with the chosen load generator, and the CPU milliseconds it took. */
async function loadFor(api: Api, headers: Record<string, string>): Promise<{ rate: number; requests: number; failed: number; clientCpuMs: number }> {
  if (loadGenerator === 'wrk') {
    const result = await runWrk({ baseUrl: api.service.baseUrl, headers, connections, seconds, pathPrefix: PROFILE_PATH.prefix, pathSuffix: PROFILE_PATH.suffix, count: people });
    return { rate: result.rate, requests: result.requests, failed: result.failed, clientCpuMs: result.cpuMs };
  }
  const client0 = process.cpuUsage();
  const result = await autocannonRun(api, headers, { duration: seconds });
  const client = process.cpuUsage(client0);
  return { rate: result.requests.average, requests: result.requests.total, failed: result.non2xx + result.errors, clientCpuMs: (client.user + client.system) / 1000 };
}

async function measure(api: Api, headers: Record<string, string>, others: Others = []): Promise<Run> {
  // A number of requests, not seconds: on a loaded machine a few seconds can be too few calls
  // for the JIT to have compiled the request path, and the cold side of a ratio would lose.
  if (!api.warm) await autocannonRun(api, headers, { amount: WARM_UP_REQUESTS * api.pids.length });
  api.warm = true;
  // PostgreSQL's backends are listed again at the end: a pool opens new connections during a run
  // (its idle ones close while the other side of a ratio runs), and their CPU counts from zero.
  const otherPids = async () => (typeof others === 'function' ? await others() : others);
  const other0 = new Map((await otherPids()).map((pid) => [pid, cpuMs([pid])]));
  const api0 = cpuMs(api.pids);
  const machine0 = machineTicks();
  const result = await loadFor(api, headers);
  const machine = machineShare(machine0, machineTicks(), cores);
  if (result.failed > 0) console.log(`  (${result.failed} failed)`);
  const count = Math.max(1, result.requests);
  const otherMs = (await otherPids()).reduce((sum, pid) => sum + cpuMs([pid]) - (other0.get(pid) ?? 0), 0);
  return {
    rate: result.rate,
    requests: result.requests,
    apiCpuMs: (cpuMs(api.pids) - api0) / count,
    otherCpuMs: otherMs / count,
    clientCpuMs: result.clientCpuMs / count,
    machine,
  };
}

/**
 * The most N API processes can give over one on these cores, from the CPU a request costs: one
 * process uses at most one core, and all of them with PostgreSQL, the load generator and the
 * kernel's interrupts at most
 * every core. Where the rest costs as much as the API, 2 cores allow two processes 1.33× at best.
 */
function ceiling(processes: number, apiMs: number, totalMs: number): number {
  const rate = (n: number) => Math.min(n / apiMs, cores / totalMs);
  return rate(processes) / rate(1);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** Alternates the two sides `rounds` times: the median ratio b/a and every run. */
async function compare(a: Api, b: Api, headers: Record<string, string>, otherPids: Others = []): Promise<{ ratio: number; ratios: number[]; a: Run[]; b: Run[] }> {
  const runsA: Run[] = [];
  const runsB: Run[] = [];
  for (let i = 0; i < rounds; i += 1) {
    // Alternate which side goes first, so neither always follows the other's warm caches.
    if (i % 2 === 0) runsA.push(await measure(a, headers, otherPids));
    runsB.push(await measure(b, headers, otherPids));
    if (i % 2 === 1) runsA.push(await measure(a, headers, otherPids));
  }
  const ratios = runsA.map((run, i) => (runsB[i]?.rate ?? 0) / run.rate);
  return { ratio: median(ratios), ratios, a: runsA, b: runsB };
}

/** Limiter script calls redis-server has answered so far. */
async function scriptCalls(): Promise<number> {
  const client = new Redis(redis.url);
  try {
    const stats = await client.info('commandstats');
    return ['evalsha', 'eval'].reduce((sum, command) => sum + Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0), 0);
  } finally {
    client.disconnect();
  }
}

const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
const rps = (runs: Run[]) => `${Math.round(median(runs.map((r) => r.rate)))} req/s`;

const apis: Api[] = [];
try {
  const file = path.join(dir, 'people.jsonl');
  await generatePeople(file, people);
  const imported = await runCli(['import', file], env);
  if (imported.code !== 0) throw new Error(imported.stderr);
  // A busy token whose limit the bench never reaches (10,000 a second): the Redis limiter takes
  // its points in leases (src/accounts/redis-rate-limit.ts), and the line below says how many
  // round trips to Redis that left per request. Limits under 200 a minute, and keys called
  // rarely, still cost one round trip a call.
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'bench', '--json', '--rate-limit', '600000/min'], env);
  const headers = { authorization: `Bearer ${(JSON.parse(created.stdout) as { token: string }).token}` };

  const one = await startApi({}, 1);
  const two = await startApi({}, 2);
  // The limiter's two sides are processes of their own, started and warmed alike: measured
  // against `one`, which has served the rounds above by then, the Redis side lost 10–15 % to
  // the JIT's warmer code in `one` alone (seen with two in-process limiters on both sides).
  const local = await startApi({}, 1);
  const shared = await startApi({ REDIS_URL: redis.url }, 1);
  apis.push(one, two, local, shared);
  for (const api of apis) await settle(api);
  const what = `GET /v1/profiles on PostgreSQL over ${people} people, ${connections} connections from ${loadGenerator}, ${rounds} alternating rounds of ${seconds} s on ${cores} cores`;

  // PostgreSQL's CPU is that of the backends serving the bench's database.
  const backends = async () => (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).rows.map((row) => row.pid);
  const plain = await compare(one, two, headers, backends);
  console.log(`${what}: 1 process ${rps(plain.a)}, 2 processes ${rps(plain.b)}: ${plain.ratio.toFixed(2)} × (rounds ${spread(plain.ratios)}; target ≥ 1.5 where the machine has the cores)`);
  const cpu = (runs: Run[]) => {
    const [api, pgMs, client] = [median(runs.map((r) => r.apiCpuMs)), median(runs.map((r) => r.otherCpuMs)), median(runs.map((r) => r.clientCpuMs))];
    // The kernel's interrupt time (loopback TCP, mostly) is counted to no process: per request too.
    const irq = median(runs.map((r) => (r.machine.interrupts * 1000) / r.rate));
    const busy = (median(runs.map((r) => r.rate)) * (api + pgMs + client + irq)) / 1000;
    const machine = (key: 'idle' | 'steal') => median(runs.map((r) => r.machine[key])).toFixed(2);
    const text = `API ${us(api)}, PostgreSQL ${us(pgMs)}, load generator ${us(client)}, interrupts ${us(irq)} (${busy.toFixed(2)} of ${cores} cores busy, ${machine('idle')} idle, ${machine('steal')} stolen by the host)`;
    return { api, total: api + pgMs + client + irq, text };
  };
  const [alone, both] = [cpu(plain.a), cpu(plain.b)];
  console.log(
    `  CPU per request, 1 process: ${alone.text}; 2 processes: ${both.text}. ` +
      `From the 1-process costs, 2 processes could reach at most ${ceiling(2, alone.api, alone.total).toFixed(2)} × one on ${cores} cores`,
  );

  const callsBefore = await scriptCalls();
  const limiter = await compare(local, shared, headers, [redis.pid]);
  const perRequest = ((await scriptCalls()) - callsBefore) / limiter.b.reduce((sum, run) => sum + run.requests, 0);
  const cost = (ratio: number) => `${(100 * (1 - ratio)).toFixed(1)} %`;
  console.log(
    `Redis rate limiter: ${rps(limiter.b)} against ${rps(limiter.a)} in-process: costs ${cost(limiter.ratio)} of throughput (rounds ${limiter.ratios.map(cost).join(', ')}; target < 15 %); ` +
      `CPU per request: API process ${us(median(limiter.a.map((r) => r.apiCpuMs)))} in-process, ${us(median(limiter.b.map((r) => r.apiCpuMs)))} with Redis, plus redis-server ${us(median(limiter.b.map((r) => r.otherCpuMs)))}; ` +
      `${perRequest.toFixed(4)} Redis round trips per request (leases)`,
  );

  const apiCpus = `0-${cores - 2}`;
  if (cores >= 2 && pin([redis.pid], String(cores - 1)) && pin([...local.pids, ...shared.pids], apiCpus)) {
    const pinned = await compare(local, shared, headers, [redis.pid]);
    console.log(`  with redis-server pinned to CPU ${cores - 1} and the API process to CPU ${apiCpus} (both limiters alike): costs ${cost(pinned.ratio)} (rounds ${pinned.ratios.map(cost).join(', ')})`);
    pin([redis.pid, ...local.pids, ...shared.pids], `0-${cores - 1}`);
  } else {
    console.log('  (pinned variant skipped: needs taskset and at least 2 cores)');
  }

  const caps = cpuCaps();
  if (typeof caps === 'string') {
    console.log(`SIMULATION of one core per API process skipped: ${caps}`);
  } else {
    try {
      for (const pid of [...one.pids, ...two.pids]) caps.cap(pid, cpuCap);
      const capped = await compare(one, two, headers);
      console.log(
        `SIMULATION, one core per API process (each API process capped at ${cpuCap} CPU with a cgroup, so PostgreSQL and the load generator have CPU left): ` +
          `1 process ${rps(capped.a)}, 2 processes ${rps(capped.b)}: ${capped.ratio.toFixed(2)} × (rounds ${spread(capped.ratios)}; target ≥ 1.5)`,
      );
    } finally {
      await Promise.allSettled(apis.splice(0).map((api) => api.service.stop()));
      caps.remove();
    }
  }
} finally {
  await Promise.allSettled(apis.map((api) => api.service.stop()));
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
