import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli, withoutNewDatabaseNote } from '../helpers/process.ts';

let cli: CliEnvironment;

beforeAll(async () => {
  cli = await cliEnvironment('users-cli');
});
afterAll(async () => {
  await cli.cleanup();
});

describe('rapport users', () => {
  it('creates (password from stdin), disables and lists users', async () => {
    // A process of its own, reading the password from a real pipe; the other commands run in
    // this process (runCliInProcess, with what stdin gives where they read it).
    const created = await runCli(['users', 'create', '--email', 'Ops.User@Example.com', '--password-stdin', '--json'], cli.env, 'a long enough password\n');
    expect(withoutNewDatabaseNote(created.stderr)).toBe('');
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout) as { id: string; email: string; password?: string };
    expect(user.email).toBe('Ops.User@Example.com');
    expect(user.password).toBeUndefined();

    const disabled = await runCliInProcess(['users', 'disable', 'OPS.USER@example.com'], cli.env);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toMatch(/Disabled user Ops\.User@Example\.com/);

    const list = await runCliInProcess(['users', 'list'], cli.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/Ops\.User@Example\.com\s+\d{4}-\d{2}-\d{2}\s+disabled/);
  }, 120_000);

  it('reset-password prints a made password once, takes one from stdin, and says when there is no such user', async () => {
    expect((await runCliInProcess(['users', 'create', '--email', 'reset.me@example.com', '--password-stdin'], cli.env, undefined, 'the first password\n')).code).toBe(0);
    const made = await runCliInProcess(['users', 'reset-password', 'RESET.ME@example.com', '--json'], cli.env);
    expect(made.code).toBe(0);
    expect((JSON.parse(made.stdout) as { email: string; password?: string }).password).toMatch(/^[\w-]{16}$/);
    const chosen = await runCliInProcess(['users', 'reset-password', 'reset.me@example.com', '--password-stdin'], cli.env, undefined, 'chosen by the operator\n');
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toMatch(/New password set for reset\.me@example\.com .*their sessions have ended/);
    expect(chosen.stdout).not.toContain('chosen by the operator');
    const tooShort = await runCliInProcess(['users', 'reset-password', 'reset.me@example.com', '--password-stdin'], cli.env, undefined, 'short\n');
    expect(tooShort.code).not.toBe(0);
    const unknown = await runCliInProcess(['users', 'reset-password', 'nobody@example.com'], cli.env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No user nobody@example.com');
  }, 120_000);
});
