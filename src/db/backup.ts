/**
 * Backups of the embedded database (`rapport db backup|restore`). A backup is PGlite's own
 * dump of the data directory, a gzipped tarball: a crash-consistent copy taken while no other
 * statement runs, so it can be made while the service serves. On PostgreSQL operators use
 * pg_dump and pg_restore instead; these functions refuse it with that advice.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../shared/errors.ts';
import type { Db, Queryable } from './client.ts';
import { acquireDataDirLock, readLock } from './data-dir-lock.ts';
import { openEmbedded } from './embedded.ts';
import { makePrivate } from './private-files.ts';

export const PG_DUMP_ADVICE =
  'This service runs on PostgreSQL (DATABASE_URL): back it up with `pg_dump --format=custom --file=FILE "$DATABASE_URL"` and restore with `pg_restore --clean --if-exists --dbname="$DATABASE_URL" FILE`.';

/** What a backup holds, counted from the database, so the operator sees at once it is not empty. */
export interface BackupContents {
  people: number;
  tokens: number;
  migrations: number;
}

export interface BackupSummary extends BackupContents {
  file: string;
  bytes: number;
  seconds: number;
}

export interface RestoreSummary extends BackupContents {
  file: string;
  dataDir: string;
  /** True when a database was there before and has been replaced (--force). */
  replaced: boolean;
  seconds: number;
}

async function countContents(db: Queryable): Promise<BackupContents> {
  const count = async (sql: string): Promise<number> => {
    const rows = await db.query<{ n: number | string }>(sql);
    return Number(rows[0]?.n ?? 0);
  };
  return {
    people: await count('SELECT count(*)::int AS n FROM people'),
    tokens: await count('SELECT count(*)::int AS n FROM api_tokens'),
    migrations: await count('SELECT count(*)::int AS n FROM schema_migrations'),
  };
}

function elapsed(start: number): number {
  return Math.round((performance.now() - start) / 100) / 10;
}

/**
 * Creates the backup's folder when it is missing (`backups/` in a fresh checkout), private like
 * the backup. Only the last folder: a path whose parent is missing too is more likely a typo
 * than a place to fill with folders.
 */
function ensureFolder(folder: string): void {
  if (existsSync(folder)) return;
  if (!existsSync(path.dirname(folder))) throw new AppError('bad_request', `The folder ${path.dirname(folder)} does not exist.`);
  mkdirSync(folder, { mode: 0o700 });
}

/**
 * Writes a backup of the embedded database to `file` (absolute: the service may write it for
 * the CLI). The copy goes to a temporary name beside it and is renamed when complete, so a
 * crash never leaves a half-written file under the backup's name.
 */
export async function writeBackup(db: Db, file: string, options: { force?: boolean } = {}): Promise<BackupSummary> {
  if (!path.isAbsolute(file)) throw new AppError('bad_request', `The backup path must be absolute, got ${file}.`);
  if (db.kind !== 'embedded' || !db.dumpDataDir) throw new AppError('bad_request', PG_DUMP_ADVICE);
  if (existsSync(file) && !options.force) throw new AppError('conflict', `${file} already exists; choose another name or use --force to overwrite it.`);
  ensureFolder(path.dirname(file));
  const start = performance.now();
  const contents = await countContents(db);
  const blob = await db.dumpDataDir();
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
  try {
    const bytes = Buffer.from(await blob.arrayBuffer());
    // 0600: a backup holds everything the database holds (emails, texts, token hashes).
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    return { file, bytes: bytes.length, seconds: elapsed(start), ...contents };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

function isNonEmptyDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** gzip (1f 8b) or a plain tar ("ustar" at byte 257): what PGlite's dump can be. */
function looksLikeDump(bytes: Buffer): boolean {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  return bytes.length > 262 && bytes.toString('latin1', 257, 262) === 'ustar';
}

/**
 * Restores a backup into `dataDir`. Refuses while a service holds the directory, and refuses to
 * replace an existing database unless `force`. The backup is unpacked and opened in a folder
 * beside the database first; only a backup that opens as a Rapport database replaces it. The
 * next start applies any newer migrations.
 */
export async function restoreBackup(file: string, dataDir: string, options: { force?: boolean } = {}): Promise<RestoreSummary> {
  const start = performance.now();
  const holder = readLock(dataDir);
  if (holder) throw new AppError('conflict', `A Rapport service (process ${holder.pid}) is using ${dataDir}. Stop it before restoring: a restore replaces the database under it.`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new AppError('bad_request', `Cannot read ${file}: ${(error as Error).message}`);
  }
  if (!looksLikeDump(bytes)) throw new AppError('bad_request', `${file} is not a Rapport backup (expected the gzipped tarball that \`rapport db backup\` writes).`);

  const lock = acquireDataDirLock(dataDir);
  const target = path.join(dataDir, 'pgdata');
  const staging = path.join(dataDir, `pgdata.restoring-${process.pid}`);
  try {
    const replaced = isNonEmptyDir(target);
    if (replaced && !options.force) {
      throw new AppError('conflict', `${dataDir} already holds a database. Use --force to replace it with the backup (make a backup of it first).`);
    }
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    let contents: BackupContents;
    try {
      const db = await openEmbedded({ dataDir: staging, loadDataDir: new Blob([bytes]) });
      try {
        contents = await countContents(db);
      } finally {
        await db.close();
      }
      // Unpacked from the backup as 0666 (PGlite writes its files so): private before it goes live.
      makePrivate(staging);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (error instanceof AppError) throw error;
      throw new AppError('bad_request', `${file} could not be opened as a Rapport database: ${(error as Error).message}`);
    }
    // Swap by renames in the same folder, so the database is never half old, half new.
    const old = path.join(dataDir, `pgdata.replaced-${process.pid}`);
    if (replaced || existsSync(target)) renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
    return { file, dataDir, replaced, seconds: elapsed(start), ...contents };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
