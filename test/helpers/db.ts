import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { openEmbedded } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { keep, lease, noteTemplate, takeKept, type EmbeddedDb } from './embedded-reuse.ts';
import { useFixture } from './fixture.ts';

export interface TestDb {
  db: Db;
  /** A connection string for this test's own database (PostgreSQL runs only). */
  url: string | null;
  close(): Promise<void>;
}

/** Copies not removed by their close (a test that closed only the Db, or failed first), removed when the process ends. */
const leftDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of leftDirs) rmSync(dir, { recursive: true, force: true });
});

/** A new copy of the run's migrated data directory, opened; its files removed once it is closed for good. */
async function openCopy(): Promise<{ db: EmbeddedDb; remove(): void }> {
  // Inside the run's own directory (global-setup.ts), which the run removes at its end: the
  // copies a worker keeps for later files are not closed when vitest ends the worker.
  const dir = mkdtempSync(path.join(path.dirname(inject('embeddedDataDir')), 'testdb-'));
  leftDirs.add(dir);
  const pgdata = path.join(dir, 'pgdata');
  cpSync(path.join(inject('embeddedDataDir'), 'pgdata'), pgdata, { recursive: true });
  const db = await openEmbedded({ dataDir: pgdata });
  await noteTemplate(db);
  return {
    db,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      leftDirs.delete(dir);
    },
  };
}

/**
 * The embedded database itself (openEmbedded on a new copy of the run's migrated data
 * directory): for tests of its own wrapper (turns, ping, close), which a reused lease or a
 * server would not show. ~0.9 s of CPU against ~4 s for an in-memory one, which runs initdb;
 * PostgreSQL runs make no data directory to copy, and get an in-memory one. Close it, then
 * remove its files.
 */
export async function openEmbeddedCopy(): Promise<{ db: Db; remove(): void }> {
  if (process.env.DATABASE_URL) return { db: await openEmbedded(), remove: () => {} };
  return openCopy();
}

/**
 * A fresh, migrated database for one test file: an embedded one as the template is (a copy of
 * it, or one an earlier file closed, emptied), or, when DATABASE_URL is set, a new database on
 * that server, dropped afterwards.
 */
export async function createTestDb(): Promise<TestDb> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // A database an earlier file of this worker closed, emptied (embedded-reuse.ts), or a copy
    // of the template's data directory: a copy opens in ~0.9 s of CPU, loading the same
    // database from its dump into memory (loadDataDir) takes ~2.5 s, and most files open one.
    const kept = (await takeKept()) ?? (await openCopy());
    const db = lease(kept.db, () => keep(kept));
    return { db, url: null, close: () => db.close() };
  }
  const name = `rapport_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 5);
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * The usual fixture, a fresh database (createTestDb) for the tests of the file or describe block
 * this is called in (useFixture: opened before the block's own hooks, closed after them). Read
 * `db` and `url` inside tests and hooks: the database does not exist yet while the file is collected.
 */
export function useTestDb(): Pick<TestDb, 'db' | 'url'> {
  const opened = useFixture('useTestDb(): the database opens in beforeAll; read it inside a test or a hook', createTestDb, (testDb) => testDb.close());
  return {
    get db() {
      return opened.current().db;
    },
    get url() {
      return opened.current().url;
    },
  };
}
