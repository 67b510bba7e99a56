import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { openEmbedded } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';

export interface TestDb {
  db: Db;
  /** A connection string for this test's own database (PostgreSQL runs only). */
  url: string | null;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: an embedded copy of the template, or, when
 * DATABASE_URL is set, a new database on that server, dropped afterwards.
 */
export async function createTestDb(): Promise<TestDb> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = readFileSync(inject('embeddedTemplate'));
    const db = await openEmbedded({ loadDataDir: new Blob([template]) });
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
