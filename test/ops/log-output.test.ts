import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';

/** Runs `body` in a fresh Node process with the service's logger as `logger`; returns its stdout lines. */
function loggedBy(body: string): { msg?: string; n?: number }[] {
  const script = `import { createLogger } from ${JSON.stringify(path.join(REPO_ROOT, 'src/shared/logger.ts'))};\nconst logger = createLogger('info');\n${body}`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(result.status).toBe(0);
  return result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { msg?: string; n?: number });
}

describe('the log on standard output (written asynchronously)', () => {
  it('keeps every line, in order, when many come at once and the process exits right after', () => {
    const lines = loggedBy("for (let n = 0; n < 2000; n++) logger.info({ n }, 'request');\nprocess.exit(0);");
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
  }, 90_000);
});
