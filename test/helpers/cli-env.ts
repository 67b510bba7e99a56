import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createTestDb, type TestDb } from './db.ts';

export interface CliEnvironment {
  /** A fresh temporary directory; the embedded database goes in its `data` folder. */
  dir: string;
  dataDir: string;
  /** The environment to run `rapport` with: this data dir, or the suite's PostgreSQL database. */
  env: Record<string, string>;
  /** Drops the database (on PostgreSQL) and the directory. */
  cleanup(): Promise<void>;
}

export interface CliEnvironmentOptions {
  /**
   * `migrated` (the default): the data directory starts with a migrated, empty embedded
   * database, copied from the suite's template (test/helpers/global-setup.ts), as a PostgreSQL
   * run starts with a migrated database of its own; creating one costs a process seconds of CPU.
   * `none`: no database yet, for tests of what the CLI or the service does on first use.
   */
  database?: 'migrated' | 'none';
}

/**
 * What a test that runs the CLI or the service as a process needs: its own data directory, and
 * when the suite runs on PostgreSQL (DATABASE_URL set), its own database there.
 */
export async function cliEnvironment(prefix: string, options: CliEnvironmentOptions = {}): Promise<CliEnvironment> {
  const dir = mkdtempSync(path.join(tmpdir(), `rapport-${prefix}-`));
  const dataDir = path.join(dir, 'data');
  const env: Record<string, string> = { RAPPORT_DATA_DIR: dataDir, LOG_LEVEL: 'info', RAPPORT_DEMO_DATA: 'false' };
  let testDb: TestDb | null = null;
  if (!process.env.DATABASE_URL && options.database !== 'none') cpSync(inject('embeddedDataDir'), dataDir, { recursive: true });
  if (process.env.DATABASE_URL) {
    testDb = await createTestDb();
    await testDb.db.close();
    env.DATABASE_URL = testDb.url ?? '';
  }
  return {
    dir,
    dataDir,
    env,
    async cleanup() {
      if (testDb) await testDb.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST /rpc/<verb> on an admin socket, as the CLI does; the NDJSON lines it answers. A string is sent as is. */
export function callAdminSocket(socketPath: string, verb: string, args: unknown): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path: `/rpc/${verb}`, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>)));
    });
    req.on('error', reject);
    req.end(typeof args === 'string' ? args : JSON.stringify(args));
  });
}
