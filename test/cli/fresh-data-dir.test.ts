import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli } from '../helpers/process.ts';

let cli: CliEnvironment;
beforeAll(async () => {
  cli = await cliEnvironment('fresh-data-dir', { database: 'none' });
});
afterAll(async () => {
  await cli.cleanup();
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('the CLI on a data directory with no database', () => {
  it('a command that only reads says there is none and creates nothing', async () => {
    // In this process (the same `main`): what they print and leave is the point; a command that
    // creates the database runs as a process of its own below.
    for (const args of [['tokens', 'list'], ['users', 'list'], ['people', 'export', '--email', 'ada@example.com'], ['tokens', 'revoke', 'tok_x']]) {
      const result = await runCliInProcess(args, cli.env);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`rapport: There is no database in ${cli.dataDir}, so nothing is stored there yet. Run the command with the service's RAPPORT_DATA_DIR (or in the directory it runs in).\n`);
    }
    expect(existsSync(path.join(cli.dataDir, 'pgdata'))).toBe(false);
  }, 60_000);

  it('a command that stores something says it created one (a service elsewhere would not see it), and only the first time', async () => {
    const first = await runCli(['tokens', 'create', '--kind', 'connect', '--name', 'first'], cli.env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`there was no database in ${cli.dataDir}: created a new one`);
    const second = await runCliInProcess(['tokens', 'list'], cli.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('first');
    expect(second.stderr).not.toContain('created a new one');
  }, 60_000);
});
