/**
 * Connect (group C) speed over the people of bench/import.ts.
 *
 *   npx tsx bench/connect.ts --data-dir DIR --people N [--searches 5000] [--seconds 5]
 *
 * 1. Async searches with a 300-word text sample, completed by one worker (the service's job
 *    worker, in this process, on the embedded database): completed/s.
 * 1b. The name search alone, in process: outcomes, stage queries and time per search.
 * 2. Message recommendations for a 300-word draft, in process: median and p99.
 * 3. Sync search by name over HTTP at 50 concurrent clients: req/s, p50, p99 (the whole run, and
 *    without its first second), status codes.
 * The imported people are renamed first (First123/Last123 names would share most trigrams and
 * make every name a near-duplicate of every other): realistic given names × family names.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createToken } from '../src/access/tokens.ts';
import { readSearch } from '../src/connect/criteria.ts';
import { FinishedRequestWriter } from '../src/connect/finished-writer.ts';
import { PROFILE_SEARCH_JOB, searchAsync } from '../src/connect/profile-search.ts';
import { profileSearchJobs } from '../src/connect/search-jobs.ts';
import { recommendMessage } from '../src/content/connect/messaging.ts';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { findMatch } from '../src/people/search.ts';
import { JobWorker } from '../src/jobs/worker.ts';
import { analyzeText, loadModel } from '../src/personality/text/index.ts';
import type { PooledAnalyzeOptions } from '../src/personality/text/pool.ts';
import { seededRandom } from '../training/random.ts';
import { createLogger } from '../src/shared/logger.ts';
import { REPO_ROOT, runCli } from '../test/helpers/process.ts';
import { gcPauses, minorFaults, threadCpuMs } from './process-readings.ts';
import { startServiceAt, type BenchService } from './service-at.ts';
import { summarize } from './stats.ts';
import { BENCH_TEXT_1000 } from './texts.ts';
import { loadContent } from '../src/content/load-content.ts';
import { cap, FAMILY, GIVEN, nameOf } from './connect-names.ts';

const shipped = loadContent();

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    people: { type: 'string', default: '0' },
    searches: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '5' },
    // Only the sync name search over HTTP, this many runs in a row (the data directory renamed by an earlier run).
    'name-search-runs': { type: 'string' },
    // A checkout whose service runs the same sync runs first, over the same data (before/after in one run).
    before: { type: 'string' },
    // Instead of the timed runs: this many rounds of 500 answers each, CPU an answer in each (how the cost falls after start).
    'cpu-curve': { type: 'string' },
    // V8 flags for the service processes, as one string (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
    'node-flags': { type: 'string' },
  },
});
const dataDir = values['data-dir'];
const people = Number(values.people);
if (!dataDir || !(people > 0)) throw new Error('give --data-dir and --people (a directory kept by bench/import.ts --keep)');
const searches = Number(values.searches);
const seconds = Number(values.seconds);
const nameSearchRuns = values['name-search-runs'] === undefined ? null : Number(values['name-search-runs']);
const cpuCurve = values['cpu-curve'] === undefined ? null : Number(values['cpu-curve']);
if (cpuCurve !== null && !(cpuCurve >= 1)) throw new Error('--cpu-curve takes a number of rounds, 1 or more');
if (nameSearchRuns !== null && !(nameSearchRuns >= 1)) throw new Error('--name-search-runs takes a number of runs, 1 or more');

const TEXT_300 = BENCH_TEXT_1000.split(' ').slice(0, 300).join(' ');

const db = await openEmbedded({ dataDir: path.join(dataDir, 'pgdata') });
await migrate(db);
let t = performance.now();
// Renamed already (an earlier run over this directory)? The person numbered last carries its name then.
const [last] = await db.query<{ first_name: string; last_name: string }>('SELECT first_name, last_name FROM people ORDER BY id DESC LIMIT 1');
const lastName = nameOf(people - 1);
const renamed = last?.first_name === lastName.first && last.last_name === lastName.last;
if (!renamed) await db.query(
  `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM people)
   UPDATE people AS p SET first_name = ($1::text[])[1 + (numbered.n % $3)], last_name = ($2::text[])[1 + ((numbered.n / $3) % $4)]
   FROM numbered WHERE p.id = numbered.id`,
  [GIVEN.map(cap), FAMILY.map(cap), GIVEN.length, FAMILY.length],
);
if (!renamed) await db.query('VACUUM ANALYZE people');
console.log(`${renamed ? 'already renamed:' : 'renamed'} ${people} people (${GIVEN.length} given × ${FAMILY.length} family names) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
if (nameSearchRuns === null && cpuCurve === null) await inProcess();
await db.close();

async function inProcess(): Promise<void> {
  // 1. Async searches completed by one worker.
  const { token } = await createToken(db, { kind: 'connect', name: 'bench-connect-inprocess' });
  const next = seededRandom(5);
  const model = loadModel();
  // The 300-word samples are read inline by the service's text pool too (under RAPPORT_TEXT_INLINE_CHARS).
  const text = { analyze: async (sample: string, options: PooledAnalyzeOptions = {}) => analyzeText(sample, { textType: options.textType, model }) };
  const deps = { db, wakeWorker: () => undefined, syncTimeoutMs: 5000, text, finished: new FinishedRequestWriter(db) };
  t = performance.now();
  for (let i = 0; i < searches; i++) {
    const { first, last } = nameOf(Math.floor(next() * people));
    await searchAsync(deps, token.id, readSearch({ firstName: first, lastName: last, textSample: TEXT_300, textType: 'email' }, 'async'));
  }
  console.log(`queued ${searches} async searches in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const jobs = profileSearchJobs({ db, text });
  const worker = new JobWorker(db, createLogger('silent'));
  worker.registerBatch(PROFILE_SEARCH_JOB, jobs.run, jobs.giveUp, { batchSize: 200 });
  t = performance.now();
  worker.start();
  for (;;) {
    const [row] = await db.query<{ left: number | string }>("SELECT count(*) AS left FROM profile_requests WHERE status = 'processing'");
    if (Number(row?.left ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const asyncSeconds = (performance.now() - t) / 1000;
  await worker.stop();
  const outcomes = await db.query<{ status: string; n: number | string }>('SELECT status, count(*) AS n FROM profile_requests GROUP BY status ORDER BY status');
  console.log(`async searches (name + 300-word text) over ${people} people, one worker: ${Math.round(searches / asyncSeconds)} completed/s (target ≥ 500); ${outcomes.map((o) => `${o.status} ${Number(o.n)}`).join(', ')}`);
  // The same work without the database: what the text analysis alone allows.
  t = performance.now();
  for (let i = 0; i < 500; i++) analyzeText(TEXT_300, { model });
  console.log(`  for scale: analyzeText on the 300-word sample alone ${Math.round(500 / ((performance.now() - t) / 1000))}/s`);
  await db.query('DELETE FROM profile_requests WHERE token_id = $1', [token.id]);

  // 1b. The name search alone, in process: what the sync searches below will meet. Names drawn as
  // the HTTP load draws them (every one a stored person), then the same kind of names with a typo
  // in both parts (most go through all three stages; some are still found, some are nobody).
  // Per kind: outcomes, stage queries per search, mean time.
  // Stage 1 is one statement per length of its name list (people_name_search_1_4, _1_8…).
  const isStage = (name: string) => /^people_name_search_[123](_\d+)?$/.test(name);
  async function nameSearches(label: string, names: Array<{ first: string; last: string }>): Promise<void> {
    let statements = 0;
    const counted = { query: db.query.bind(db), run: ((statement, params) => ((statements += isStage(statement.name) ? 1 : 0), db.run(statement, params))) as typeof db.run };
    const outcomes = new Map<string, number>();
    const started = performance.now();
    for (const { first, last } of names) {
      const result = await findMatch(counted, { firstName: first, lastName: last, email: null, companyName: null, location: null });
      const kind = result.person ? 'matched' : result.reason;
      outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
    }
    const ms = (performance.now() - started) / names.length;
    console.log(`  name search in process, ${label}: ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')}; ${(statements / names.length).toFixed(2)} stage queries and ${ms.toFixed(2)} ms each`);
  }
  const drawn = seededRandom(9);
  await nameSearches('names of stored people', Array.from({ length: 2000 }, () => nameOf(Math.floor(drawn() * people))));
  const typo = (name: string) => name.slice(0, 2) + name.charAt(3) + name.charAt(2) + name.slice(4);
  await nameSearches('stored names with a typo in both parts', Array.from({ length: 100 }, () => nameOf(Math.floor(drawn() * people))).map(({ first, last }) => ({ first: typo(first), last: `${typo(last)}x` })));

  // 2. Message recommendations in process.
  const sender = { firstName: 'Alex', estimate: { scores: { extraversion: 0.5, agreeableness: 0.3, conscientiousness: 0, openness: 0, neuroticism: 0 }, confidence: { extraversion: 0.2, agreeableness: 0.2, conscientiousness: 0.1, openness: 0.1, neuroticism: 0.1 }, source: 'prediction' as const, modelVersion: 'bench', wordCount: 300 } };
  const recipient = { ...sender, firstName: 'Sam', estimate: { ...sender.estimate, scores: { ...sender.estimate.scores, extraversion: -0.6, agreeableness: -0.4 } } };
  const draft = `Hi Sam!!! ${TEXT_300} I think maybe we could possibly meet next week, it would be amazing!`;
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const start = performance.now();
    recommendMessage(draft, sender, recipient, shipped.messaging);
    times.push(performance.now() - start);
  }
  const message = summarize(times.slice(200));
  console.log(`message recommendations, 300-word draft, in process: median ${message.median.toFixed(2)} ms, p99 ${message.p99.toFixed(2)} ms (target < 5 ms)`);
}

// 3. Sync search by name over HTTP at 50 concurrent clients: the service as an operator starts it
// (bench/service-at.ts), from --before's checkout first when given, then from this one, over the
// same data directory one after the other.
const env = { RAPPORT_DATA_DIR: dataDir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_RUNTIME: 'source' };
const nodeFlags = values['node-flags']?.split(' ').filter(Boolean) ?? [];
const sides = [...(values.before ? [{ label: `BEFORE (${values.before})`, root: path.resolve(values.before) }] : []), { label: values.before ? 'AFTER (this checkout)' : 'this checkout', root: REPO_ROOT }];
for (const side of sides) {
  const logFile = path.join(dataDir, 'bench-service.log');
  const service = await startServiceAt(side.root, env, logFile, nodeFlags);
  try {
    const created = await runCli(['tokens', 'create', '--kind', 'connect', '--name', 'bench-connect', '--json', '--rate-limit', 'none'], env);
    const org = (JSON.parse(created.stdout) as { token: string }).token;
    const pick = seededRandom(9);
    const options = (connections: number, duration: number): autocannon.Options => ({
      url: service.connectUrl,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          headers: { 'x-org-token': org, 'content-type': 'application/json' },
          setupRequest: (request) => {
            const { first, last } = nameOf(Math.floor(pick() * people));
            return { ...request, path: '/v1/profiles', body: JSON.stringify({ first_name: first, last_name: last }) };
          },
        },
      ],
    });
    console.log(`${side.label}: service pid ${service.pid}${nodeFlags.length ? ` (node ${nodeFlags.join(' ')})` : ''}`);
    // A checkout that warms its name search up after listening (src/connect/warm-up.ts): the runs
    // start once it says it is done, as the first callers of a service started a few seconds before would.
    if (existsSync(path.join(side.root, 'src/connect/warm-up.ts'))) {
      const warmed = await service.waitForLog('name search warmed up', 120_000);
      console.log(`  warm-up after listening: ${warmed ?? 'not done within 120 s'}`);
    }
    if (cpuCurve !== null) {
      await cpuCurveRuns(options, cpuCurve, service, logFile);
      continue;
    }
    await autocannon(options(10, 1));
    for (let run = 1; run <= (nameSearchRuns ?? 1); run += 1) await nameSearchRun(options, run, service, logFile);
  } finally {
    await service.stop();
  }
}

/**
 * Rounds of a fixed number of answers (not of seconds) at 50 connections, the service's CPU an
 * answer in each: a figure a loaded machine inflates little, so the curve of a fresh process's
 * cost (what is still warming up, and from when it stops falling) reads even when the timed runs
 * cannot.
 */
async function cpuCurveRuns(options: (connections: number, duration: number) => autocannon.Options, rounds: number, service: BenchService, logFile: string): Promise<void> {
  const ANSWERS = 500;
  // The service's own CPU with nobody asking (timers, the job worker's polls, V8's compilers still
  // busy with the warm-up's code): what a round's CPU an answer carries besides the answers.
  const idleBefore = threadCpuMs(service.pid);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = [...threadCpuMs(service.pid)].map(([name, ms]) => [name, (ms - (idleBefore.get(name) ?? 0)) / 3] as const);
  console.log(`  idle for 3 s before the rounds: ${idle.reduce((sum, [, ms]) => sum + ms, 0).toFixed(0)} ms of CPU a second (${idle.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')})`);
  for (let round = 1; round <= rounds; round += 1) {
    const threadsBefore = threadCpuMs(service.pid);
    const faultsBefore = minorFaults(service.pid);
    const logBefore = statSync(logFile).size;
    const started = performance.now();
    const result = await autocannon({ ...options(50, 1), amount: ANSWERS });
    const faults = (minorFaults(service.pid) - faultsBefore) / ANSWERS;
    const seconds = (performance.now() - started) / 1000;
    const threads = [...threadCpuMs(service.pid)].map(([name, ms]) => [name, ((ms - (threadsBefore.get(name) ?? 0)) * 1000) / ANSWERS] as const);
    const total = threads.reduce((sum, [, us]) => sum + us, 0);
    console.log(
      `  round ${round} (answers ${(round - 1) * ANSWERS + 1}–${round * ANSWERS}): ${total.toFixed(0)} µs of CPU an answer (${threads.map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}), ${faults.toFixed(1)} page faults; p99 ${result.latency.p99} ms, ${seconds.toFixed(1)} s, load ${loadavg()[0]?.toFixed(1)}`,
    );
    const log = readFileSync(logFile).subarray(logBefore).toString('utf8');
    const gc = gcPauses(log);
    if (gc) console.log(`    GC pauses (--trace-gc) ${gc}`);
    // With --trace-opt --trace-deopt: what V8's optimising compiler still had to do for these answers.
    const optimised = log.match(/completed optimizing/g)?.length ?? 0;
    const deopts = log.match(/bailout \(kind: deopt/g)?.length ?? 0;
    if (optimised + deopts > 0) console.log(`    V8 (--trace-opt --trace-deopt): ${optimised} functions optimised, ${deopts} deoptimised`);
  }
}

/** One autocannon run of sync name searches at 50 connections, with the machine's load average beside it. */
async function nameSearchRun(options: (connections: number, duration: number) => autocannon.Options, run: number, service: BenchService, logFile: string): Promise<void> {
  const logBefore = statSync(logFile).size;
  // Every answer's latency, to read the run without its first second apart: the 50 connections
  // are opened as it starts, and on a busy machine their first requests can wait seconds.
  const answered: Array<{ at: number; ms: number }> = [];
  const started = Date.now();
  const cpuBefore = service.cpuMs();
  const threadsBefore = threadCpuMs(service.pid);
  // The same clock as V8's CPU profiles (CLOCK_MONOTONIC, µs): a profile of the service can be cut at these.
  const span = [process.hrtime.bigint() / 1000n];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options(50, seconds), (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, ms) => answered.push({ at: Date.now() - started, ms }));
  });
  const cpuMs = service.cpuMs() - cpuBefore;
  span.push(process.hrtime.bigint() / 1000n);
  const threads = [...threadCpuMs(service.pid)].map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0);
  const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}: ${(s as { count: number }).count}`).join(', ');
  const steady = summarize(answered.filter((a) => a.at > 1000).map((a) => a.ms));
  console.log(`POST /v1/profiles by name over ${people} people, 50 connections: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms (target p99 < 100 ms); ${codes} (404: nobody, or ambiguous)`);
  console.log(`  the same run after its first second: p50 ${steady.median.toFixed(0)} ms, p99 ${steady.p99.toFixed(0)} ms, max ${steady.max.toFixed(0)} ms`);
  // The first second in tenths: when its slowest answers were sent, and how many came back.
  const tenths = Array.from({ length: 10 }, (_, i) => answered.filter((a) => a.at >= i * 100 && a.at < (i + 1) * 100));
  console.log(`  its first second in tenths (answers, slowest ms): ${tenths.map((t) => `${t.length}/${Math.round(Math.max(0, ...t.map((a) => a.ms)))}`).join(' ')}`);
  console.log(`  the service's CPU: ${((cpuMs * 1000) / Math.max(1, answered.length)).toFixed(0)} µs an answer (${(cpuMs / 1000).toFixed(1)} s over ${answered.length} answers)`);
  console.log(`  of which, ${threads.sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${((ms * 1000) / Math.max(1, answered.length)).toFixed(0)} µs`).join(', ')}`);
  const gc = gcPauses(readFileSync(logFile).subarray(logBefore).toString('utf8'));
  if (gc) console.log(`  run ${run}: GC pauses (--trace-gc) ${gc}`);
  if (nodeFlags.length) console.log(`  run ${run}: from ${span[0]} to ${span[1]} µs on the monotonic clock of V8's profiles`);
  console.log(`  run ${run}: load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 minutes) on ${availableParallelism()} cores`);
}
