import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openEmbedded } from '../../src/db/embedded.ts';
import { embeddedTemplateFile } from '../../src/db/embedded-template.ts';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/server.ts';
import { freePort, REPO_ROOT } from '../helpers/process.ts';

// The embedded database only: these are PGlite's settings and files.
describe.skipIf(Boolean(process.env.DATABASE_URL))('the embedded database footprint', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'rapport-footprint-'));
  // startService gives the process the service's umask (src/server.ts); the next file in this worker gets it back.
  const umask = process.umask();
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    process.umask(umask);
  });

  it('runs with a small buffer pool and few connection slots, not a server’s 128 MB and 100', async () => {
    const db = await openEmbedded({ dataDir: path.join(root, 'settings'), template: inject('embeddedTemplate') });
    try {
      const rows = await db.query<{ name: string; setting: string; unit: string | null }>(
        "SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'max_connections') ORDER BY name",
      );
      expect(rows).toEqual([
        { name: 'max_connections', setting: '5', unit: null },
        { name: 'shared_buffers', setting: '4096', unit: '8kB' },
      ]);
    } finally {
      await db.close();
    }
  });

  it('starts a new data directory from the template it is given (here migrated) instead of running initdb, and leaves an existing one alone', async () => {
    const dataDir = path.join(root, 'from-template');
    const first = await openEmbedded({ dataDir, template: inject('embeddedTemplate') });
    // The test template is migrated: a database made by initdb would have no tables yet.
    expect(await first.query('SELECT count(*)::int AS n FROM api_tokens')).toEqual([{ n: 0 }]);
    await first.exec("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.close();
    // Opened again with the template named: the database already there is used, not replaced.
    const again = await openEmbedded({ dataDir, template: inject('embeddedTemplate') });
    try {
      expect(await again.query('SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
    } finally {
      await again.close();
    }
  });

  it("starts a new data directory from the build's database, every migration of the build applied: a first start has none left to run", async () => {
    const built = path.join(REPO_ROOT, 'dist', 'db');
    const db = await openEmbedded({ dataDir: path.join(root, 'built'), template: path.join(built, path.basename(embeddedTemplateFile())) });
    try {
      const versions = readdirSync(path.join(built, 'migrations'))
        .filter((name) => name.endsWith('.sql'))
        .map((name) => name.replace(/\.sql$/, ''))
        .sort();
      expect(versions.length).toBeGreaterThan(10);
      const applied = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(applied.map((row) => row.version)).toEqual(versions);
    } finally {
      await db.close();
    }
  });

  it('starts no PDF or text worker thread until the first PDF or long text', async () => {
    const dataDir = path.join(root, 'service');
    // A data directory that already holds a migrated database: a copy of the suite's
    // (test/helpers/global-setup.ts), rather than a database opened here and closed to make one.
    cpSync(inject('embeddedDataDir'), dataDir, { recursive: true });
    const config = loadConfig({ RAPPORT_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), CONNECT_PORT: String(await freePort()), LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false' });
    const service = await startService(config);
    try {
      // Started at once before: the PDF pool on its own after listening, the text pool with it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(service.ctx.pdf.workersStarted).toBe(0);
      expect(service.ctx.textPool.threadCount).toBe(0);
    } finally {
      await service.stop();
    }
  }, 90_000);
});
