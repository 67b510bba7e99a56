import { stat } from 'node:fs/promises';
import { AppError } from '../shared/errors.ts';

/** "no such file" for the usual mistake, the system's own words for anything rarer. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Fails with one sentence naming the path as the user typed it, before any work starts (or any
 * database opens), so a typo never surfaces as a raw `ENOENT: no such file or directory, open …`.
 */
export async function checkReadable(file: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(file)).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    throw new AppError(code === 'ENOENT' ? 'not_found' : 'bad_request', `Cannot read ${file}: ${reasonOf(error)}.`);
  }
  if (!isFile) throw new AppError('bad_request', `Cannot read ${file}: not a regular file.`);
}

/** The same sentence for a failure while reading (a file removed or locked after the check). */
export function cannotRead(file: string, error: unknown): AppError {
  return error instanceof AppError ? error : new AppError('bad_request', `Cannot read ${file}: ${reasonOf(error)}.`);
}
