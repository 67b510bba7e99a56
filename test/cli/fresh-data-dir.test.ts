import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCli } from '../helpers/process.ts';

let cli: CliEnvironment;
beforeAll(async () => {
  cli = await cliEnvironment('fresh-data-dir');
});
afterAll(async () => {
  await cli.cleanup();
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('the CLI on a data directory with no database', () => {
  it('says it created one (a service elsewhere would not see it), and only the first time', async () => {
    const first = await runCli(['tokens', 'list'], cli.env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`there was no database in ${cli.dataDir}: created a new one`);
    const second = await runCli(['tokens', 'list'], cli.env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('created a new one');
  }, 60_000);
});
