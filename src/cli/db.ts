import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import type { RestoreSummary } from '../db/backup.ts';
import { AppError } from '../shared/errors.ts';
import { checkReadable } from './files.ts';
import { printJson, withExecutor } from './run-with.ts';

const PG_BACKUP = 'With DATABASE_URL set the database is a PostgreSQL server: back it up with `pg_dump --format=custom --file=FILE "$DATABASE_URL"` (docs/operations.md, "Backups").';
const PG_RESTORE = 'With DATABASE_URL set the database is a PostgreSQL server: restore with `pg_restore --clean --if-exists --dbname="$DATABASE_URL" FILE` (docs/operations.md, "Backups").';

function contentsLine(summary: { people: number; tokens: number }): string {
  return `${summary.people} ${summary.people === 1 ? 'person' : 'people'}, ${summary.tokens} ${summary.tokens === 1 ? 'token' : 'tokens'}`;
}

/** Where backups go unless a file is named: a folder the checkout's .gitignore lists, so they never land in a commit. */
export const DEFAULT_BACKUP_FOLDER = 'backups';

/** backups/rapport-2026-01-31T09-30-00Z.backup: sorts by time, and a second backup the same day gets its own name. */
export function defaultBackupFile(now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replaceAll(':', '-');
  return path.join(DEFAULT_BACKUP_FOLDER, `rapport-${stamp}Z.backup`);
}

/** The restore's summary as `--json` prints it (the operator's JSON is snake_case, like the API's). */
function restoreSummaryView(summary: RestoreSummary) {
  return { file: summary.file, data_dir: summary.dataDir, replaced: summary.replaced, seconds: summary.seconds, people: summary.people, tokens: summary.tokens, migrations: summary.migrations };
}

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('the embedded database: backups (on PostgreSQL use pg_dump and pg_restore)');
  db.command('backup')
    .description('write a consistent copy of the embedded database to FILE, also while the service runs')
    .argument('[file]', `the backup file to write (a gzipped tarball; default: ${DEFAULT_BACKUP_FOLDER}/rapport-<UTC date and time>.backup, its folder created when missing)`)
    .option('--force', 'overwrite FILE if it exists')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string | undefined, options: { force?: boolean; json?: boolean }) => {
      if (loadConfig().databaseUrl) throw new AppError('bad_request', PG_BACKUP);
      // With the service running, the service writes the file: give it a path that does not depend on our cwd.
      const absolute = path.resolve(file ?? defaultBackupFile(new Date()));
      const summary = await withExecutor((executor) => executor.call('db.backup', { path: absolute, force: options.force === true }), { existing: true });
      if (options.json) printJson(summary);
      else process.stdout.write(`Backed up ${contentsLine(summary)} to ${summary.file} (${(summary.bytes / (1024 * 1024)).toFixed(1)} MB) in ${summary.seconds.toFixed(1)} s.\n`);
    });
  db.command('restore')
    .description('replace the embedded database (RAPPORT_DATA_DIR) with a backup; the service must be stopped')
    .argument('<file>', 'a file written by `rapport db backup`')
    .option('--force', 'replace a database that is already there')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, options: { force?: boolean; json?: boolean }) => {
      const config = loadConfig();
      if (config.databaseUrl) throw new AppError('bad_request', PG_RESTORE);
      const absolute = path.resolve(file);
      await checkReadable(absolute);
      const { restoreBackup } = await import('../db/backup.ts');
      const summary: RestoreSummary = await restoreBackup(absolute, path.resolve(config.dataDir), { force: options.force === true });
      if (options.json) printJson(restoreSummaryView(summary));
      else {
        const replaced = summary.replaced ? ', replacing the database that was there' : '';
        process.stdout.write(`Restored ${contentsLine(summary)} from ${summary.file} into ${summary.dataDir}${replaced} in ${summary.seconds.toFixed(1)} s. Start the service to use it.\n`);
      }
    });
}
