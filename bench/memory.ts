/**
 * Resident memory of the whole service (one process, all its threads) on the embedded database,
 * beside the floor: a bare PGlite with the schema loaded (bench/memory-floor.mjs).
 *
 * - first start on a fresh data directory with the demo people: the peak (VmHWM) until it is
 *   listening with the demo loaded and has idled `--idle` seconds, and its resident memory then;
 * - the same directory started again: idle resident memory (what a service runs at day to day);
 * - the floor: the peak and idle of a process that only opens a fresh database and migrates it.
 *
 * Targets (issue 29): idle ≤ 300 MB, first-start peak ≤ 500 MB. Linux only (/proc).
 *
 *   npx tsx bench/memory.ts [--idle 10]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, startServiceProcess } from '../test/helpers/process.ts';

const { values } = parseArgs({ options: { idle: { type: 'string', default: '10' } } });
const idleMs = Number(values.idle) * 1000;

function memoryOf(pid: number): { rss: number; peak: number; threads: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(field('VmRSS') / 1024), peak: Math.round(field('VmHWM') / 1024), threads: field('Threads') };
}

async function serviceRun(dataDir: string, logFile: string) {
  const service = await startServiceProcess({ RAPPORT_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, [], 'node', { logFile });
  try {
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return memoryOf(service.child.pid ?? 0);
  } finally {
    await service.stop();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-memory-'));
try {
  const first = await serviceRun(path.join(dir, 'service'), path.join(dir, 'first.log'));
  if (!readFileSync(path.join(dir, 'first.log'), 'utf8').includes('demo people loaded')) throw new Error('the first start did not load the demo people');
  const again = await serviceRun(path.join(dir, 'service'), path.join(dir, 'again.log'));
  const floorRun = () => {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bench/memory-floor.mjs'), path.join(dir, 'floor')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, IDLE_MS: String(idleMs) },
    });
    const floor = /FLOOR (\d+) (\d+) (\w+)/.exec(run.stdout);
    if (!floor) throw new Error(`the floor did not run: ${run.stderr}`);
    return { rss: Number(floor[1]), peak: Number(floor[2]), runtime: floor[3] };
  };
  // The floor the same two ways: on a fresh directory, then opened again.
  const floorFirst = floorRun();
  const floorAgain = floorRun();
  console.log(`service, first start with the demo people: peak ${first.peak} MB (target ≤ 500), idle ${first.rss} MB after ${values.idle} s, ${first.threads} threads`);
  console.log(`service, started again on that directory: idle ${again.rss} MB (target ≤ 300), peak ${again.peak} MB, ${again.threads} threads`);
  console.log(`floor, a bare PGlite with the schema loaded (${floorFirst.runtime}): fresh directory peak ${floorFirst.peak} MB, idle ${floorFirst.rss} MB; opened again idle ${floorAgain.rss} MB, peak ${floorAgain.peak} MB`);
  console.log(`service over the floor: first-start peak ${first.peak - floorFirst.peak >= 0 ? '+' : ''}${first.peak - floorFirst.peak} MB, idle after a restart +${again.rss - floorAgain.rss} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
