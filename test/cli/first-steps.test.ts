import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { REPO_ROOT, runCli } from '../helpers/process.ts';

/**
 * What a new user runs from the README and docs/operations.md ("Backups"), as they write it,
 * where a fresh checkout has nothing yet (no backups/ folder). The CLI runs in a folder of its own that stands in for the
 * checkout, so the test never writes into the real one.
 */
let cli: CliEnvironment;
let env: Record<string, string>;
let checkout: string;

beforeAll(async () => {
  cli = await cliEnvironment('first-steps', { database: 'none' });
  ({ env } = cli);
  checkout = path.join(cli.dir, 'checkout');
  mkdirSync(checkout);
});
afterAll(async () => {
  await cli.cleanup();
});

/** `$(date +%F)` as the shell writes it. */
function shellDate(): string {
  return execFileSync('date', ['+%F'], { encoding: 'utf8' }).trim();
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('the backup commands of the README and docs/operations.md in a fresh checkout', () => {
  it('back up into backups/, made when missing, and restore from it', async () => {
    // A process of its own, as the README runs it, on a data directory with no database yet.
    const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'demo', '--json'], env, undefined, checkout);
    expect(created.code).toBe(0);
    expect(existsSync(path.join(checkout, 'backups'))).toBe(false);

    // `npx rapport db backup`: a file of its own, named by the time, in a folder made for it.
    const plain = await runCliInProcess(['db', 'backup', '--json'], env, checkout);
    expect(plain.stderr).toBe('');
    expect(plain.code).toBe(0);
    const folder = path.join(checkout, 'backups');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [first, ...others] = readdirSync(folder);
    expect(others).toEqual([]);
    expect(first).toMatch(/^rapport-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.backup$/);
    const summary = JSON.parse(plain.stdout) as { file: string; tokens: number };
    expect(summary).toMatchObject({ file: path.join(folder, first ?? ''), tokens: 1 });
    expect(statSync(summary.file).mode & 0o777).toBe(0o600);

    // `npx rapport db backup backups/rapport-$(date +%F).backup`, then the restore that reads it.
    const named = `backups/rapport-${shellDate()}.backup`;
    const backup = await runCliInProcess(['db', 'backup', named], env, checkout);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up 0 people, 1 token to .*backups\/rapport-\d{4}-\d\d-\d\d\.backup/);
    expect(statSync(path.join(checkout, named)).isFile()).toBe(true);
    const restored = await runCliInProcess(['db', 'restore', named, '--force'], env, checkout);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored 0 people, 1 token from .* replacing the database that was there/);

    // Only the last folder is made: a path missing two is more likely a typo.
    const typo = await runCliInProcess(['db', 'backup', 'bakups/2026/x.backup'], env, checkout);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/The folder .*bakups does not exist/);
    expect(existsSync(path.join(checkout, 'bakups'))).toBe(false);
  }, 240_000);

  it('keep backups and exports out of commits', () => {
    const ignored = readFileSync(path.join(REPO_ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['/backups/', '/exports/']));
  });
});

describe('rapport import', () => {
  it('says which column a near-miss header was likely meant to be', async () => {
    const file = path.join(cli.dir, 'people.csv');
    writeFileSync(file, 'Email,First Name,Bio,Phone\nnew.user@example.com,New,I like to plan things carefully,555\n');
    const result = await runCliInProcess(['import', file, '--quiet'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Columns not read: Bio (did you mean text_bio?), Phone\n');
  }, 120_000);
});

describe('the demo PDF the README analyses', () => {
  it('is a resume that yields a personality', async () => {
    const result = await runCliInProcess(['analyze', 'src/people/demo/resume.pdf'], env);
    expect(result.code).toBe(0);
    const analysis = JSON.parse(result.stdout) as { personality: { disc_type: string } | null; read_as: string };
    expect(analysis.personality?.disc_type).toMatch(/^[DISC][disc]?$/);
  }, 120_000);
});
