/**
 * Scaling out on PostgreSQL: GET /v1/profiles with one API process against two
 * (`serve --processes 2`), and the Redis rate limiter against the in-process one.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/scale-out.ts [--people 10000] [--seconds 5] [--connections 32]
 *
 * Needs a PostgreSQL server (a fresh database is created on it and dropped) and Debian's
 * redis-server (a throwaway one is started on loopback).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { seededRandom } from '../training/random.ts';
import { runCli, startServiceProcess } from '../test/helpers/process.ts';
import { HAVE_REDIS, startRedis } from '../test/helpers/redis.ts';
import { generatePeople } from './people.ts';

const { values } = parseArgs({ options: { people: { type: 'string', default: '10000' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '32' } } });
const people = Number(values.people);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
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
const env = { DATABASE_URL: url.toString(), RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' };

async function profilesRate(baseUrl: string, headers: Record<string, string>): Promise<number> {
  const next = seededRandom(5);
  const run = (duration: number) =>
    autocannon({
      url: baseUrl,
      headers,
      connections,
      duration,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/profiles?email=person${Math.floor(next() * people)}%40example.com` }) }],
    });
  await run(1);
  const result = await run(seconds);
  if (result.non2xx + result.errors > 0) console.log(`  (${result.non2xx + result.errors} failed)`);
  return result.requests.average;
}

async function measure(extraEnv: Record<string, string>, args: string[], headers: Record<string, string>): Promise<number> {
  const service = await startServiceProcess({ ...env, ...extraEnv }, args);
  try {
    // --processes: wait until every process listens, so the figure is not one process warming up.
    await new Promise((r) => setTimeout(r, args.length > 0 ? 8000 : 1000));
    return await profilesRate(service.baseUrl, headers);
  } finally {
    await service.stop();
  }
}

try {
  const file = path.join(dir, 'people.jsonl');
  await generatePeople(file, people);
  const imported = await runCli(['import', file], env);
  if (imported.code !== 0) throw new Error(imported.stderr);
  // A limit so high it never refuses, so both limiters do their whole work on every call.
  const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'bench', '--json', '--rate-limit', '2000000000/min'], env);
  const headers = { authorization: `Bearer ${(JSON.parse(created.stdout) as { token: string }).token}` };

  const one = await measure({}, [], headers);
  const two = await measure({}, ['--processes', '2'], headers);
  console.log(`GET /v1/profiles on PostgreSQL over ${people} people, ${connections} connections: 1 process ${Math.round(one)} req/s, 2 processes ${Math.round(two)} req/s: ${(two / one).toFixed(2)} × (target ≥ 1.5 where the machine has the cores; this one has ${(await import('node:os')).availableParallelism()})`);

  const withRedis = await measure({ REDIS_URL: redis.url }, [], headers);
  console.log(`Redis rate limiter: ${Math.round(withRedis)} req/s against ${Math.round(one)} in-process: costs ${(100 * (1 - withRedis / one)).toFixed(1)} % of throughput (target < 15 %)`);
} finally {
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
