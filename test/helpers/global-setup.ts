import { existsSync, mkdirSync, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { openEmbedded } from '../../src/db/embedded.ts';
import { embeddedTemplateFile } from '../../src/db/embedded-template.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplate: string;
    /** A data directory holding a migrated embedded database, closed: copied by tests that run the CLI or the service as a process. */
    embeddedDataDir: string;
  }
}

/**
 * The empty database the build made (`dist/db/pgdata-template-<PGlite version>.tar.gz`, the one a
 * new data directory starts from), or null before a build: then PGlite runs initdb, ~11 s of CPU
 * against ~3 s to load the copy, before any test file can start.
 */
async function builtEmptyDatabase(): Promise<Blob | null> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/db', path.basename(embeddedTemplateFile()));
  return existsSync(file) ? openAsBlob(file) : null;
}

/**
 * Creating a PGlite cluster takes seconds of CPU. Build one migrated template per run and let
 * every test file start from a copy of it: a data directory, made the way the service makes one
 * (src/db/open.ts), copied for the database a test opens in its own process
 * (test/helpers/db.ts) and for the CLI and service processes a test starts; and a dump of the
 * same database, for the tests of loading one.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-test-'));
  const file = path.join(dir, 'template.tar');
  const dataDir = path.join(dir, 'data');
  if (!process.env.DATABASE_URL) {
    const empty = await builtEmptyDatabase();
    const db = await openEmbedded(empty ? { loadDataDir: empty } : {});
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
    // The same database in a data directory: loaded from the dump, then opened as the service
    // opens one (lock, private files, migrations) and closed.
    mkdirSync(dataDir);
    const loaded = await openEmbedded({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: dump });
    await loaded.close();
    const opened = await openDatabase({ databaseUrl: null, dataDir });
    await opened.close();
  }
  project.provide('embeddedTemplate', file);
  project.provide('embeddedDataDir', dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
