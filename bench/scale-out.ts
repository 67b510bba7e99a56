/**
 * Scaling out on PostgreSQL: GET /v1/profiles with one API process against two
 * (`serve --processes 2`), and the Redis rate limiter against the in-process one.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/scale-out.ts [--people 10000] [--seconds 5] [--connections 32] [--rounds 5] [--cpu-cap 0.4] [--sweep 16,32,64,128,256] [--parts processes,limiter,simulation]
 *
 * Needs a PostgreSQL server (a fresh database is created on it and dropped) and Debian's
 * redis-server (a throwaway one is started on loopback). Every service is started once and the
 * runs alternate between them (`--rounds`), so a change in the machine's load falls on both
 * sides of a ratio; each line gives the median ratio and the spread of the rounds.
 *
 * 1. one process against two, as they are (the load generator, PostgreSQL and Redis share the
 *    same cores as the API processes, so on a 2-core machine two processes cannot reach 2×), at
 *    each number of connections of `--sweep`, then each side at the number where it answered
 *    most (the most it served on this machine), each with its latency (p99);
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
import { Redis } from 'ioredis';
import pg from 'pg';
import { runCli, startServiceProcess } from '../test/helpers/process.ts';
import { HAVE_REDIS, startRedis } from '../test/helpers/redis.ts';
import { ceiling, compare as compareRuns, cpuPerRequest, medianOf, medianRate, p99, rps, settle, spread, us, type Api, type Load, type Others, type RunSettings } from './alternating-runs.ts';
import { cpuCaps, pin } from './cpu-limits.ts';
import { generatePeople } from './people.ts';
import { HAVE_WRK } from './wrk.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '5' },
    'cpu-cap': { type: 'string', default: '0.4' },
    'load-generator': { type: 'string', default: HAVE_WRK ? 'wrk' : 'autocannon' },
    parts: { type: 'string', default: 'processes,limiter,simulation' },
    sweep: { type: 'string', default: '16,32,64,128,256' },
  },
});
const people = Number(values.people);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (!Number.isInteger(connections) || connections < 1) throw new Error('--connections takes a number of connections');
const rounds = Number(values.rounds);
// One process against two at each of these numbers of connections (the other parts use --connections).
const sweep = [...new Set([...values.sweep.split(',').map(Number), connections])].sort((x, y) => x - y);
if (sweep.some((count) => !Number.isInteger(count) || count < 1)) throw new Error('--sweep takes a comma-separated list of connection counts');
const cpuCap = Number(values['cpu-cap']);
const loadGenerator = values['load-generator'];
if (loadGenerator !== 'wrk' && loadGenerator !== 'autocannon') throw new Error('--load-generator is wrk or autocannon');
const PARTS = ['processes', 'limiter', 'simulation'] as const;
const parts = new Set(values.parts.split(','));
for (const part of parts) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--parts takes a comma-separated list of ${PARTS.join(', ')}`);
if (loadGenerator === 'wrk' && !HAVE_WRK) throw new Error('--load-generator wrk needs wrk (Debian: apt-get install wrk)');
const cores = availableParallelism();
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
const settings: RunSettings = { people, seconds, rounds, loadGenerator, cores };
const compare = (a: Api, b: Api, load: Load, others?: Others, loadB?: Load) => compareRuns(settings, a, b, load, others, loadB);
const env = { DATABASE_URL: url.toString(), RAPPORT_DEMO_DATA: 'false', RAPPORT_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'info' };

let started = 0;
/** The services started so far: each is stopped once, by the part that needs it gone or at the end. */
const apis: Api[] = [];

async function stopApis(which: Api[]): Promise<void> {
  const stopping = apis.filter((api) => which.includes(api));
  apis.splice(0, apis.length, ...apis.filter((api) => !which.includes(api)));
  await Promise.allSettled(stopping.map((api) => api.service.stop()));
}

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

/**
 * 1. One process against two, as they are: at each number of connections of `--sweep`
 * (alternating rounds at each), then each side at the number where it answered most (the most
 * it served on this machine), again in alternating rounds.
 */
async function compareProcesses(one: Api, two: Api, headers: Record<string, string>): Promise<void> {
  // PostgreSQL's CPU is that of the backends serving the bench's database.
  const backends = async () => (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).rows.map((row) => row.pid);
  const where = `GET /v1/profiles on PostgreSQL over ${people} people, ${loadGenerator}, ${rounds} alternating rounds of ${seconds} s on ${cores} cores`;
  console.log(`${where}; target: 2 processes ≥ 1.5 × one where the machine has the cores`);
  const best = { one: { rate: 0, connections }, two: { rate: 0, connections } };
  for (const count of sweep) {
    const runs = await compare(one, two, { headers, connections: count }, backends);
    console.log(
      `  ${count} connections: 1 process ${rps(runs.a)} (${p99(runs.a)}), 2 processes ${rps(runs.b)} (${p99(runs.b)}): ${runs.ratio.toFixed(2)} × (rounds ${spread(runs.ratios)}); ` +
        `API CPU a request ${us(medianOf(runs.a, 'apiCpuMs'))} → ${us(medianOf(runs.b, 'apiCpuMs'))}`,
    );
    for (const [side, sideRuns] of [['one', runs.a], ['two', runs.b]] as const) {
      const rate = medianRate(sideRuns);
      if (rate > best[side].rate) best[side] = { rate, connections: count };
    }
    if (count !== connections) continue;
    const [alone, both] = [cpuPerRequest(runs.a, cores), cpuPerRequest(runs.b, cores)];
    console.log(
      `    CPU per request, 1 process: ${alone.text}; 2 processes: ${both.text}. ` +
        `From the 1-process costs, 2 processes could reach at most ${ceiling(cores, 2, alone.api, alone.total).toFixed(2)} × one on ${cores} cores`,
    );
  }
  if (sweep.length < 2) {
    console.log('  (each side at its best skipped: --sweep has one number of connections)');
    return;
  }
  const peak = await compare(one, two, { headers, connections: best.one.connections }, backends, { headers, connections: best.two.connections });
  // A side at its best at the sweep's largest count may do better still with more connections.
  const top = sweep[sweep.length - 1];
  const edge = best.one.connections === top || best.two.connections === top ? '; at the sweep\'s largest count, so the most either can serve may be higher' : '';
  console.log(
    `  each at its best: 1 process at ${best.one.connections} connections ${rps(peak.a)} (${p99(peak.a)}), ` +
      `2 processes at ${best.two.connections} ${rps(peak.b)} (${p99(peak.b)}): ${peak.ratio.toFixed(2)} × (rounds ${spread(peak.ratios)}${edge})`,
  );
}

/** 2 and 3. The Redis limiter against the in-process one, then with redis-server pinned. */
async function compareLimiters(local: Api, shared: Api, headers: Record<string, string>): Promise<void> {
  const callsBefore = await scriptCalls();
  const limiter = await compare(local, shared, { headers, connections }, [redis.pid]);
  const perRequest = ((await scriptCalls()) - callsBefore) / limiter.b.reduce((sum, run) => sum + run.requests, 0);
  const cost = (ratio: number) => `${(100 * (1 - ratio)).toFixed(1)} %`;
  console.log(
    `Redis rate limiter: ${rps(limiter.b)} against ${rps(limiter.a)} in-process: costs ${cost(limiter.ratio)} of throughput (rounds ${limiter.ratios.map(cost).join(', ')}; target < 15 %); ` +
      `CPU per request: API process ${us(medianOf(limiter.a, 'apiCpuMs'))} in-process, ${us(medianOf(limiter.b, 'apiCpuMs'))} with Redis, plus redis-server ${us(medianOf(limiter.b, 'otherCpuMs'))}; ` +
      `${perRequest.toFixed(4)} Redis round trips per request (leases)`,
  );

  const apiCpus = `0-${cores - 2}`;
  if (cores >= 2 && pin([redis.pid], String(cores - 1)) && pin([...local.pids, ...shared.pids], apiCpus)) {
    const pinned = await compare(local, shared, { headers, connections }, [redis.pid]);
    console.log(`  with redis-server pinned to CPU ${cores - 1} and the API process to CPU ${apiCpus} (both limiters alike): costs ${cost(pinned.ratio)} (rounds ${pinned.ratios.map(cost).join(', ')})`);
    pin([redis.pid, ...local.pids, ...shared.pids], `0-${cores - 1}`);
  } else {
    console.log('  (pinned variant skipped: needs taskset and at least 2 cores)');
  }
}

/** 4. The SIMULATION of one core per API process. */
async function simulateOneCoreEach(one: Api, two: Api, headers: Record<string, string>): Promise<void> {
  const caps = cpuCaps();
  if (typeof caps === 'string') {
    console.log(`SIMULATION of one core per API process skipped: ${caps}`);
  } else {
    try {
      for (const pid of [...one.pids, ...two.pids]) caps.cap(pid, cpuCap);
      const capped = await compare(one, two, { headers, connections });
      console.log(
        `SIMULATION, one core per API process (each API process capped at ${cpuCap} CPU with a cgroup, so PostgreSQL and the load generator have CPU left): ` +
          `1 process ${rps(capped.a)}, 2 processes ${rps(capped.b)}: ${capped.ratio.toFixed(2)} × (rounds ${spread(capped.ratios)}; target ≥ 1.5)`,
      );
    } finally {
      // A cgroup can only be removed once the processes in it are gone.
      await stopApis([one, two]);
      caps.remove();
    }
  }
}

try {
  const file = path.join(dir, 'people.jsonl');
  await generatePeople(file, people);
  const imported = await runCli(['import', file], env);
  if (imported.code !== 0) throw new Error(imported.stderr);
  // A busy token whose limit the bench never reaches (10,000 a second): the Redis limiter takes
  // its points in leases (src/access/redis-rate-limit.ts), and the line below says how many
  // round trips to Redis that left per request. Limits under 200 a minute, and keys called
  // rarely, still cost one round trip a call.
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'bench', '--json', '--rate-limit', '600000/min'], env);
  const headers = { authorization: `Bearer ${(JSON.parse(created.stdout) as { token: string }).token}` };

  const needsOneAndTwo = parts.has('processes') || parts.has('simulation');
  const one = needsOneAndTwo ? await startApi({}, 1) : null;
  const two = needsOneAndTwo ? await startApi({}, 2) : null;
  // The limiter's two sides are processes of their own, started and warmed alike: measured
  // against `one`, which has served the rounds above by then, the Redis side lost 10–15 % to
  // the JIT's warmer code in `one` alone (seen with two in-process limiters on both sides).
  const local = parts.has('limiter') ? await startApi({}, 1) : null;
  const shared = parts.has('limiter') ? await startApi({ REDIS_URL: redis.url }, 1) : null;
  for (const api of [one, two, local, shared]) if (api) apis.push(api);
  for (const api of apis) await settle(api);

  if (one && two && parts.has('processes')) await compareProcesses(one, two, headers);
  if (local && shared) await compareLimiters(local, shared, headers);
  if (one && two && parts.has('simulation')) await simulateOneCoreEach(one, two, headers);
} finally {
  await stopApis([...apis]);
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
