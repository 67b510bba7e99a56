import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/process.ts';

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('rapport --version', () => {
  it('prints the version from package.json and exits 0', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], {});
      expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
    }
  });

  it('is listed in the help', async () => {
    expect((await runCli(['--help'], {})).stdout).toMatch(/-V, --version\s+print the version and exit/);
  });
});
