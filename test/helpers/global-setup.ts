import { existsSync, mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { openEmbedded } from '../../src/db/embedded.ts';
import { embeddedTemplateFile } from '../../src/db/embedded-template.ts';
import { migrate, MIGRATIONS_DIR } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplate: string;
    /** A data directory holding a migrated embedded database, closed: copied by tests that run the CLI or the service as a process. */
    embeddedDataDir: string;
  }
}

/**
 * The database the build made (`dist/db/pgdata-template-<PGlite version>.tar.gz`, the one a new
 * data directory starts from: initdb's cluster with dist/'s migrations applied), uncompressed;
 * or null before a build, or when src/'s migrations are not dist/'s (edited since the build):
 * then PGlite runs initdb (~11 s of CPU against ~0.1 s) and this run's migrations are applied.
 */
function builtDatabase(): Buffer | null {
  const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/db');
  const file = path.join(dist, path.basename(embeddedTemplateFile()));
  if (!existsSync(file)) return null;
  const sql = (dir: string) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => `${name}\n${readFileSync(path.join(dir, name), 'utf8')}`)
      .join('\n');
  if (sql(path.join(dist, 'migrations')) !== sql(MIGRATIONS_DIR)) {
    console.error('test setup: src/db/migrations differ from dist/db/migrations (run `npm run build`): making the test database with initdb');
    return null;
  }
  return gunzipSync(readFileSync(file));
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
    const built = builtDatabase();
    if (built) writeFileSync(file, built);
    else {
      const db = await openEmbedded();
      await migrate(db);
      writeFileSync(file, Buffer.from(await (await db.pglite.dumpDataDir('none')).arrayBuffer()));
      await db.close();
    }
    const dump = await openAsBlob(file);
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
