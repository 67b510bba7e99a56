import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli, startServiceProcess } from '../helpers/process.ts';

/**
 * The embedded database's files are its user's alone (issue 25, finding 3): the data directory
 * 0700, everything in it 0700 (folders) or 0600 (files), whatever the umask the command was
 * started with, for a new database, one a backup is restored into, and the backup itself; a
 * start on a data directory other users can open warns. Before, 968 of a new database's 1,063
 * files were 0666: any local user could read the WAL (password hashes, emails) and write it.
 * These are the embedded database's files, so the commands run without DATABASE_URL.
 */

let dir: string;
const previousUmask = process.umask();
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-private-files-'));
  // The commands inherit it: what an operator's shell usually has.
  process.umask(0o022);
});
afterAll(() => {
  process.umask(previousUmask);
  rmSync(dir, { recursive: true, force: true });
});

/** Everything under `root` that others may read, write or enter: its path and mode. */
function openToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (target: string) => {
    const info = lstatSync(target);
    if (info.isSymbolicLink()) return;
    if ((info.mode & 0o077) !== 0) open.push(`${path.relative(root, target) || '.'} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const entry of readdirSync(target)) visit(path.join(target, entry));
  };
  visit(root);
  return open;
}

function env(dataDir: string): Record<string, string> {
  return { RAPPORT_DATA_DIR: dataDir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', DATABASE_URL: '' };
}

describe('the data directory and its files', () => {
  it('a command that creates the database leaves nothing in it open to other users', async () => {
    const dataDir = path.join(dir, 'fresh');
    const created = await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'private'], env(dataDir));
    expect(created.code, created.stderr).toBe(0);
    expect(readdirSync(path.join(dataDir, 'pgdata')).length).toBeGreaterThan(5);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 120_000);

  it('a backup and a database restored from it are private too', async () => {
    const dataDir = path.join(dir, 'fresh');
    const backup = path.join(dir, 'rapport.backup');
    // In this process (the same \`main\`, which sets the same umask at its start as a \`rapport\`
    // process does): a process of its own costs ~3 s of CPU, and test/cli/backup.test.ts runs
    // both commands as processes.
    const made = await runCliInProcess(['db', 'backup', backup], env(dataDir));
    expect(made.code, made.stderr).toBe(0);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const restoredDir = path.join(dir, 'restored');
    const restored = await runCliInProcess(['db', 'restore', backup], env(restoredDir));
    expect(restored.code, restored.stderr).toBe(0);
    expect(readdirSync(path.join(restoredDir, 'pgdata')).length).toBeGreaterThan(5);
    expect(openToOthers(restoredDir)).toEqual([]);
  }, 180_000);

  it('a start on a data directory others can open warns, and still keeps the database private', async () => {
    const dataDir = path.join(dir, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    // An upload left by a version that ran under umask 022.
    mkdirSync(path.join(dataDir, 'uploads'), { mode: 0o755 });
    writeFileSync(path.join(dataDir, 'uploads', 'left.part'), '%PDF-1.4', { mode: 0o644 });
    const service = await startServiceProcess(env(dataDir));
    try {
      expect(service.logs()).toContain(`RAPPORT_DATA_DIR ${dataDir} is open to other users of this machine (mode 0755)`);
      expect(openToOthers(path.join(dataDir, 'pgdata'))).toEqual([]);
      expect(openToOthers(path.join(dataDir, 'uploads'))).toEqual([]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    // A directory made private again: no warning at the next start.
    chmodSync(dataDir, 0o700);
    const again = await startServiceProcess(env(dataDir));
    try {
      expect(again.logs()).not.toContain('is open to other users');
    } finally {
      await again.stop();
    }
  }, 180_000);
});
