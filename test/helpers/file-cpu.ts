import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { REPO_ROOT } from './process.ts';

/**
 * Loaded only when RAPPORT_TEST_CPU_LOG names a file (vitest.config.ts): appends one line per
 * test file, `FILE<TAB>SECONDS`, the CPU (user + sys) of the file's worker process and of the
 * child processes it started and waited for (`rapport` processes, Chromium), read from
 * /proc/self/stat at the end of the file. Files run isolated, one worker process each, so the
 * figure is the file's own; a whole-suite run then prices every file in one sitting.
 */
const log = process.env.RAPPORT_TEST_CPU_LOG;

function cpuSeconds(): number {
  // Fields after the command name: utime stime cutime cstime are the 12th–15th (clock ticks, 100 a second on Linux).
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

if (log) {
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    appendFileSync(log, `${path.relative(REPO_ROOT, file)}\t${cpuSeconds().toFixed(1)}\n`);
  });
}
