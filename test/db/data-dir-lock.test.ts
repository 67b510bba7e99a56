import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../../src/db/data-dir-lock.ts';
import { REPO_ROOT } from '../helpers/process.ts';

describe('the data directory lock', () => {
  it('creates missing parents, writes the lock, and frees it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rapport-lock-'));
    try {
      const dir = path.join(root, 'a', 'b', 'data');
      const lock = acquireDataDirLock(dir);
      expect(statSync(dir).isDirectory()).toBe(true);
      const lockFile = path.join(dir, 'rapport.lock');
      expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
      lock.release();
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fails at once, naming RAPPORT_DATA_DIR, where a directory cannot be made', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rapport-lock-'));
    try {
      const file = path.join(root, 'a-file');
      writeFileSync(file, '');
      expect(() => acquireDataDirLock(path.join(file, 'data'))).toThrow(/Cannot create the data directory .*a-file\/data \(RAPPORT_DATA_DIR\)/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // Node's recursive mkdir loops forever under /proc, where new entries fail with ENOENT.
  it.runIf(process.platform === 'linux')('does not hang under /proc', () => {
    expect(() => acquireDataDirLock('/proc/rapport-nope/data')).toThrow(/Cannot create the data directory \/proc\/rapport-nope \(RAPPORT_DATA_DIR\)/);
  });

  it('is not left behind by a process that exits without releasing it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rapport-lock-'));
    try {
      const dir = path.join(root, 'data');
      const lockModule = path.join(REPO_ROOT, 'src/db/data-dir-lock.ts');
      const code = `import { acquireDataDirLock } from ${JSON.stringify(lockModule)}; acquireDataDirLock(${JSON.stringify(dir)}); process.exit(3);`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(3);
      expect(existsSync(dir)).toBe(true);
      expect(existsSync(path.join(dir, 'rapport.lock'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
