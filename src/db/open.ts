import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './client.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { openEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';
import { makePrivate } from './private-files.ts';

export interface OpenedDatabase {
  db: Db;
  /** Held for the embedded database only. */
  lock: DataDirLock | null;
  close(): Promise<void>;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    // node-postgres loads only where DATABASE_URL is set: the embedded database does without it.
    const { openPostgres } = await import('./postgres.ts');
    const db = await openPostgres(config.databaseUrl, config.databasePoolSize);
    await migrate(db);
    return { db, lock: null, close: () => db.close() };
  }
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const pgdata = path.join(config.dataDir, 'pgdata');
    const db = await openEmbedded({ dataDir: pgdata });
    // A new database's files come out of PGlite's template as 0666: this user's alone, like the rest.
    makePrivate(pgdata);
    await migrate(db);
    return {
      db,
      lock,
      async close() {
        await db.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
