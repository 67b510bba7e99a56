import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The data directory holds everything the database holds (emails, texts, password and token
 * hashes, in its files and its WAL) and the uploads waiting for analysis: it is for the service's
 * own user alone. Processes of the CLI and the service run under umask 077 (set at start), so what
 * they create is 0700 and 0600; this covers what that does not: PGlite unpacks a new database's
 * template files (and a restored backup's) as 0666 whatever the umask, and a data directory made
 * by an older version under umask 022.
 */
export const PRIVATE_UMASK = 0o077;

/** Everything under `dir` (and `dir`), directories 0700 and files 0600; links are left alone. Returns how many were changed. */
export function makePrivate(dir: string): number {
  let changed = 0;
  const visit = (target: string) => {
    const info = lstatSync(target, { throwIfNoEntry: false });
    if (!info || info.isSymbolicLink()) return;
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== 0o700) {
        chmodSync(target, 0o700);
        changed++;
      }
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    } else if (info.isFile() && (info.mode & 0o077) !== 0) {
      chmodSync(target, (info.mode & 0o700) | 0o600);
      changed++;
    }
  };
  visit(dir);
  return changed;
}

/** A sentence for the log when other users can read or enter `dir`; null when it is private (or absent). */
export function openDirectoryWarning(dir: string, variable: string): string | null {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (!info || (info.mode & 0o077) === 0) return null;
  const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
  return (
    `${variable} ${dir} is open to other users of this machine (mode ${mode}). The database files in it are kept private (0600), ` +
    `but its listing and anything else put there are not: run \`chmod 700 ${dir}\`.`
  );
}
