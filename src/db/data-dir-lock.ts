import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database admits one process at a time. The process that opens it holds this
 * lock file, which also says where its admin socket is, so the CLI can reach the database
 * through the running service instead of opening the directory a second time.
 */
export interface LockInfo {
  pid: number;
  startedAt: string;
  adminSocket: string | null;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'rapport.lock');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock, or null when nobody (or a dead process) holds it. */
export function readLock(dataDir: string): LockInfo | null {
  let info: LockInfo;
  try {
    info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
  } catch {
    return null;
  }
  if (typeof info.pid !== 'number' || !isAlive(info.pid) || info.pid === process.pid) return null;
  return info;
}

export class DataDirBusyError extends Error {
  constructor(readonly holder: LockInfo, dataDir: string) {
    super(`The embedded database in ${dataDir} is in use by process ${holder.pid}.`);
  }
}

export interface DataDirLock {
  /** Records where this process's admin socket listens. */
  setAdminSocket(socketPath: string | null): void;
  release(): void;
}

/**
 * Creates the directory and its missing parents one level at a time. Node's recursive mkdir
 * loops forever where a parent refuses new entries with ENOENT (under /proc, say), so a bad
 * RAPPORT_DATA_DIR would hang the start instead of failing it.
 */
function ensureDirectory(dir: string): void {
  if (existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureDirectory(parent);
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new Error(`Cannot create the data directory ${dir} (RAPPORT_DATA_DIR): ${(error as Error).message}`, { cause: error });
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  ensureDirectory(dataDir);
  const file = lockPath(dataDir);
  const holder = readLock(dataDir);
  if (holder) throw new DataDirBusyError(holder, dataDir);
  // A stale lock from a process that died: take it over.
  rmSync(file, { force: true });
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), adminSocket: null };
  const write = () => {
    const fd = openSync(file, 'w');
    writeSync(fd, JSON.stringify(info));
    closeSync(fd);
  };
  // 'wx' fails if another process created the file between our check and now.
  const fd = openSync(file, 'wx');
  closeSync(fd);
  write();
  // A process that exits without closing the database (process.exit on a failed start, an
  // uncaught error) holds nothing any more: it does not leave its lock behind.
  const releaseOnExit = () => rmSync(file, { force: true });
  process.once('exit', releaseOnExit);
  return {
    setAdminSocket(socketPath) {
      info.adminSocket = socketPath;
      write();
    },
    release() {
      process.off('exit', releaseOnExit);
      rmSync(file, { force: true });
    },
  };
}
