/**
 * The CPU (user + system, all threads) of one `rapport` process per command, as the tests and an
 * operator start them: `serve` from start to its "Rapport is listening" line and a SIGTERM stop,
 * and a few CLI verbs. Each command runs on a fresh copy of one migrated data directory, and
 * with `--before <checkout>` that checkout's `bin/rapport.mjs` runs the same command right after
 * this one's, round after round (`--rounds`, 3), so a change in the machine's load falls on both
 * sides of the ratio. Both checkouts run their own dist/ (`npm run build` first; RAPPORT_RUNTIME=dist).
 *
 *   npx tsx bench/process-starts.ts [--before /path/to/checkout] [--rounds 3] [--node-flags=--liftoff-only]
 *
 * The CPU comes from GNU time (`/usr/bin/time`, Debian's `time` package): the figure of the whole
 * process at its exit, which a reader of /proc could not take.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, freePort } from '../test/helpers/process.ts';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    'node-flags': { type: 'string', default: '' },
    only: { type: 'string' },
  },
});

const TINY_CSV = 'email,first_name,last_name,text_bio\nada@example.com,Ada,Byron,"I love organising events, meeting new people and leading the team with energy."\n';

interface Command {
  name: string;
  args: (dir: string) => string[];
  serve?: boolean;
}

const COMMANDS: Command[] = [
  { name: '--version', args: () => ['--version'] },
  { name: 'tokens list', args: () => ['tokens', 'list'] },
  { name: 'users list', args: () => ['users', 'list'] },
  { name: 'import (1 person)', args: (dir) => ['import', path.join(dir, 'tiny.csv'), '--quiet'] },
  { name: 'serve start-stop', args: () => ['serve'], serve: true },
];

const nodeFlags = (values['node-flags'] ?? '').split(' ').filter((f) => f !== '');

function cpuOf(file: string): number {
  const [user, system] = readFileSync(file, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? [];
  if (user === undefined || system === undefined || Number.isNaN(user + system)) throw new Error(`no CPU figure in ${file}: ${readFileSync(file, 'utf8')}`);
  return user + system;
}

/** The pid of /usr/bin/time's one child (the node process). */
function childOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/** Runs one command of one checkout on a fresh copy of `template`; its CPU seconds. */
async function measure(checkout: string, command: Command, template: string): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-starts-'));
  try {
    cpSync(template, path.join(dir, 'data'), { recursive: true });
    writeFileSync(path.join(dir, 'tiny.csv'), TINY_CSV);
    const timeFile = path.join(dir, 'time');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      RAPPORT_DATA_DIR: path.join(dir, 'data'),
      RAPPORT_DEMO_DATA: 'false',
      RAPPORT_RUNTIME: 'dist',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      CONNECT_PORT: String(await freePort()),
    };
    const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, ...nodeFlags, path.join(checkout, 'bin/rapport.mjs'), ...command.args(dir)], {
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stopped = false;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (command.serve && !stopped && output.includes('Rapport is listening')) {
        stopped = true;
        const node = child.pid === undefined ? null : childOf(child.pid);
        if (node !== null) process.kill(node, 'SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await exited;
    if (code !== 0) throw new Error(`${checkout}: rapport ${command.name} exited ${code}:\n${output}`);
    return cpuOf(timeFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One migrated data directory made by this checkout, holding one token (a first command creates it). */
async function migratedTemplate(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-starts-template-'));
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/rapport.mjs'), 'tokens', 'create', '--kind', 'enterprise', '--name', 'bench'], {
    env: { ...process.env, RAPPORT_DATA_DIR: path.join(dir, 'data'), RAPPORT_DEMO_DATA: 'false', RAPPORT_RUNTIME: 'dist' },
    stdio: 'ignore',
  });
  await new Promise((resolve) => child.once('exit', resolve));
  return path.join(dir, 'data');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const rounds = Number(values.rounds);
const checkouts: [string, string][] = [['this', REPO_ROOT]];
if (values.before) checkouts.push(['before', path.resolve(values.before)]);
const template = await migratedTemplate();
console.log(`process starts: ${rounds} rounds, node flags [${nodeFlags.join(' ')}], load ${load()}`);
for (const command of COMMANDS.filter((c) => !values.only || c.name.includes(values.only))) {
  const figures = new Map<string, number[]>(checkouts.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round += 1) {
    // Alternate which side goes first, so neither always follows the other's cache warm-up.
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const [label, checkout] of order) figures.get(label)?.push(await measure(checkout, command, template));
  }
  const mine = figures.get('this') ?? [];
  const line = [`${command.name.padEnd(18)} this ${median(mine).toFixed(2)} s (${mine.map((x) => x.toFixed(2)).join(', ')})`];
  const before = figures.get('before');
  if (before) line.push(`before ${median(before).toFixed(2)} s (${before.map((x) => x.toFixed(2)).join(', ')})`, `ratio ${(median(mine) / median(before)).toFixed(2)}`);
  console.log(`${line.join('  ')}  load ${load()}`);
}
rmSync(path.dirname(template), { recursive: true, force: true });
