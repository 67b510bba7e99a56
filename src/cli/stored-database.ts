import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { readLock } from '../db/data-dir-lock.ts';
import { AppError } from '../shared/errors.ts';

/**
 * Whether the embedded database exists (or a service holds its directory), found without
 * opening it: a command that only reads or changes what is stored says there is none instead
 * of creating one. Always true with DATABASE_URL (the server says what it holds).
 */
export function hasStoredDatabase(config: Config): boolean {
  if (config.databaseUrl) return true;
  return readLock(config.dataDir) !== null || existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'));
}

export function noStoredDatabase(config: Config): AppError {
  return new AppError(
    'not_found',
    `There is no database in ${config.dataDir}, so nothing is stored there yet. Run the command with the service's RAPPORT_DATA_DIR (or in the directory it runs in).`,
  );
}
