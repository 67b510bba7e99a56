/**
 * `npm run bench`: every benchmark in one run, so figures and ratios come from the same
 * machine state. `npm run bench -- --quick` uses 10,000 people instead of 100,000, 30 uploads
 * of 3.5 MB instead of 100, and 3 rounds of each scale-out comparison instead of 5.
 * `--before <checkout>` times that checkout's draft checker (C4) against this one.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../test/helpers/process.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, people: { type: 'string' }, before: { type: 'string' } } });
const people = values.people ?? (values.quick ? '10000' : '100000');

function run(script: string, args: string[]): string {
  console.log(`\n== ${script} ${args.join(' ')}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, script), ...args], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(result.stdout);
  if (result.status !== 0) throw new Error(`${script} failed with exit code ${result.status}`);
  return result.stdout;
}

// First, while nothing else of the bench has warmed the machine's caches or filled its memory.
run('bench/memory.ts', []);
run('bench/text.ts', []);
run('bench/assessment.ts', []);
run('bench/worker-threads.ts', []);
// `--before <checkout>`: the draft checker of another checkout timed against this one.
run('bench/connect-content.ts', values.before === undefined ? [] : ['--before', values.before]);
run('bench/assessment-web.ts', []);
run('bench/uploads.ts', values.quick ? ['--quick'] : []);
run('bench/bodies.ts', values.quick ? ['--rounds', '1'] : []);
const imported = run('bench/import.ts', ['--people', people, '--keep']);
const dir = /kept (\S+)/.exec(imported)?.[1];
const rawRate = Number(/raw (\d+)\/s/.exec(imported)?.[1] ?? Number.NaN);
const rawPreparedRate = Number(/raw prepared (\d+)\/s/.exec(imported)?.[1] ?? Number.NaN);
try {
  const http = run('bench/http.ts', [...(dir ? ['--data-dir', dir, '--people', people] : []), ...(values.quick ? ['--quick'] : [])]);
  // Each hook and plugin of an authenticated request priced; `--before`: that checkout's whole app beside this one's.
  run('bench/request-cost.ts', values.before === undefined ? [] : ['--before', values.before]);
  const profilesRate = Number(/PROFILES_RPS (\S+)/.exec(http)?.[1] ?? Number.NaN);
  if (Number.isFinite(rawRate) && Number.isFinite(profilesRate)) {
    console.log(`\nGET /v1/profiles vs the raw PGlite point lookup in this run: ${(profilesRate / rawRate).toFixed(2)} × a plain query (target ≥ 0.5), ${(profilesRate / rawPreparedRate).toFixed(2)} × a prepared statement`);
  }
  // Last: it renames the imported people (realistic names for the name search).
  if (dir) run('bench/connect.ts', ['--data-dir', dir, '--people', people, ...(values.quick ? ['--searches', '2000'] : [])]);
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
run('bench/webhooks.ts', values.quick ? ['--searches', '300', '--down-seconds', '20', '--throughput', '300'] : []);
// On PostgreSQL only (set DATABASE_URL): one API process against two, Redis limiter against in-process.
run('bench/scale-out.ts', values.quick ? ['--people', '2000', '--rounds', '3'] : []);
