import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { REPO_ROOT } from './process.ts';

/**
 * Loaded only when RAPPORT_TEST_CPU_LOG names a file (vitest.config.ts): appends one line per
 * test file, `FILE<TAB>SECONDS`, the CPU (user + sys) its worker process spent on it, with the
 * child processes it started and waited for (`rapport` processes, Chromium), read from
 * /proc/self/stat. Files share worker processes (`isolate: false`), so a file's figure is the
 * process's CPU since the previous file in the same worker ended (since the process started,
 * for the first): the lines of a whole-suite run sum to the workers' CPU, and a file that loads
 * code no earlier file in its worker loaded pays for loading it.
 */
const log = process.env.RAPPORT_TEST_CPU_LOG;

/** Vitest evaluates this file again before each test file; the mark outlives it on the worker's global object. */
const MARK = Symbol.for('rapport.test-file-cpu.mark');
type Marked = typeof globalThis & { [MARK]?: number };

function cpuSeconds(): number {
  // Fields after the command name: utime stime cutime cstime are the 12th–15th (clock ticks, 100 a second on Linux).
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

if (log) {
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    const marked = globalThis as Marked;
    const now = cpuSeconds();
    appendFileSync(log, `${path.relative(REPO_ROOT, file)}\t${(now - (marked[MARK] ?? 0)).toFixed(1)}\n`);
    marked[MARK] = now;
  });
}
