/**
 * The database a new embedded data directory starts from: empty, with the build's migrations
 * applied. PGlite creates a cluster by running initdb in a second copy of PostgreSQL in this
 * process, whose memory grows to ~450 MB before it is let go: a first start peaked at ~850 MB
 * resident. The build (`npm run build`, run by `npm install`) runs initdb and the migrations once
 * and keeps the result beside the compiled code (dist/ holds the same migrations, so they match);
 * a first start unpacks that copy instead (~350 MB at its peak, most of it garbage collected
 * right after), and its migration step finds nothing to do (schema_migrations says when the
 * build applied them). Where there is no copy for the installed PGlite (running from source, or
 * PGlite upgraded without a rebuild), PGlite runs initdb and the migrations run as before.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';

/** The installed PGlite's version: a copy made by another version is not used. */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/** Where the copy for the installed PGlite lives: next to this module (dist/db/ once built). */
export function embeddedTemplateFile(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), `pgdata-template-${pgliteVersion()}.tar.gz`);
}

/** The copy to start `dataDir` from, or null: the directory holds a database already, or there is no copy. */
export function templateFor(dataDir: string, file = embeddedTemplateFile()): string | null {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return null;
  return existsSync(file) ? file : null;
}

/** Writes `pglite`'s cluster to `file`, compressed (the build calls this through createEmbeddedTemplate). */
export async function writeEmbeddedTemplate(file: string, pglite: PGlite): Promise<void> {
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
}
