import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.ts';

/** The numbered .sql files, beside this module (dist/db/migrations once built). */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any constant: serialises migrations when several processes start against one server. */
const MIGRATION_LOCK_KEY = 727_274_001;

export async function listMigrations(): Promise<{ version: string; file: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3,}_[\w-]+\.sql$/.test(f)).sort();
  return files.map((file) => ({ version: file.replace(/\.sql$/, ''), file: path.join(MIGRATIONS_DIR, file) }));
}

/** Applies the numbered .sql files not applied yet, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied: string[] = [];
  for (const migration of await listMigrations()) {
    const sql = await readFile(migration.file, 'utf8');
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.length > 0) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/**
 * Splits a migration into statements so each runs through the same parameterised path on both
 * databases. Our migrations keep to plain DDL: no dollar-quoted bodies, no semicolons in strings.
 */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
